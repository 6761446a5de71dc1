import { useCallback, useState } from 'react';
import { useLoginCopy } from '../lib/login-copy';
import type { StepProps } from '../lib/login-view';
import { useSubmit } from '../lib/use-submit';
import { SubmitButton, TextButton } from './buttons';
import { ProviderButtons } from './provider-buttons';
import { FormError } from './form-messages';
import { EmailField, NewPasswordField } from './text-field';
import { ViewHeading } from './view-heading';

/** SignUpForm creates an account; the server mails a 6-digit code, entered on the next step. */
export function SignUpForm({
  api,
  go,
  focusOnShow,
  email: initialEmail = '',
}: StepProps & { email?: string }) {
  const copy = useLoginCopy();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');

  const { busy, error, submit } = useSubmit(
    useCallback(async () => {
      await api.register(email, password);
      go({ step: 'verify', email, password });
    }, [api, email, password, go]),
  );

  return (
    <>
      <ViewHeading title="Create your account" focusOnShow={focusOnShow}>
        <p>{copy.join} We will email you a code to confirm it is you.</p>
      </ViewHeading>
      <ProviderButtons />
      <form onSubmit={submit}>
        <EmailField value={email} onChange={(event) => setEmail(event.target.value)} />
        <NewPasswordField
          label="Password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormError message={error} />
        <SubmitButton busy={busy} busyLabel="Creating your account…">
          Create account
        </SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm text-white/80">
        Already have an account?{' '}
        <TextButton onClick={() => go({ step: 'sign-in', email })}>Sign in</TextButton>
      </p>
    </>
  );
}
