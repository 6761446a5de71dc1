import { useCallback, useState } from 'react';
import { authErrorReason } from '../lib/error-message';
import { useLoginCopy } from '../lib/login-copy';
import type { StepProps } from '../lib/login-view';
import { LEAVING, useSubmit } from '../lib/use-submit';
import { SubmitButton, TextButton } from './buttons';
import { ProviderButtons } from './provider-buttons';
import { FormError, FormNotice } from './form-messages';
import { EmailField, TextField } from './text-field';
import { ViewHeading } from './view-heading';

interface SignInFormProps extends StepProps {
  email?: string;
  notice?: string;
}

/** SignInForm signs in with email and password; an unverified account goes on to the code step. */
export function SignInForm({
  api,
  go,
  finish,
  focusOnShow,
  email: initialEmail = '',
  notice,
}: SignInFormProps) {
  const copy = useLoginCopy();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');

  const { busy, error, submit } = useSubmit(
    useCallback(async () => {
      finish(await api.signIn(email, password));
      return LEAVING;
    }, [api, email, password, finish]),
    useCallback(
      (caught: unknown) => {
        if (authErrorReason(caught) !== 'email_not_verified') return false;
        void api.resendCode(email).catch(() => undefined);
        go({
          step: 'verify',
          email,
          password,
          notice: 'Your email is not verified yet: we sent you a new code.',
        });
        return true;
      },
      [api, email, password, go],
    ),
  );

  return (
    <>
      <ViewHeading title="Sign in" focusOnShow={focusOnShow}>
        <p>{copy.welcomeBack}</p>
      </ViewHeading>
      <FormNotice message={notice ?? null} />
      <ProviderButtons />
      <form onSubmit={submit}>
        <EmailField
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <p className="-mt-2 mb-4 text-right text-sm">
          <TextButton onClick={() => go({ step: 'forgot', email })}>Forgot password?</TextButton>
        </p>
        <FormError message={error} />
        <SubmitButton busy={busy} busyLabel="Signing in…">
          Sign in
        </SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm text-white/80">
        {copy.newHere}{' '}
        <TextButton onClick={() => go({ step: 'sign-up', email })}>Create an account</TextButton>
      </p>
    </>
  );
}
