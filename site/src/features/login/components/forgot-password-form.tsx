import { useCallback, useState } from 'react';
import type { StepProps } from '../lib/login-view';
import { useSubmit } from '../lib/use-submit';
import { SubmitButton, TextButton } from './buttons';
import { FormError, FormNotice } from './form-messages';
import { EmailField } from './text-field';
import { ViewHeading } from './view-heading';

/** ForgotPasswordForm asks for a reset link; the answer is the same whether or not the account exists. */
export function ForgotPasswordForm({
  api,
  go,
  focusOnShow,
  email: initialEmail = '',
}: StepProps & { email?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [sent, setSent] = useState<string | null>(null);

  const { busy, error, submit } = useSubmit(
    useCallback(async () => {
      setSent(null);
      const message = (await api.requestPasswordReset(email)) ?? 'If an account exists, we sent a reset link';
      setSent(`${message.replace(/\.$/, '')}. Check ${email} and open the link to choose a new password.`);
    }, [api, email]),
  );

  return (
    <>
      <ViewHeading title="Reset your password" focusOnShow={focusOnShow}>
        <p>Enter your account&apos;s email and we will send you a link to choose a new password.</p>
      </ViewHeading>
      <form onSubmit={submit}>
        <EmailField value={email} onChange={(event) => setEmail(event.target.value)} />
        <FormError message={error} />
        <FormNotice message={sent} />
        <SubmitButton busy={busy} busyLabel="Sending…">
          Send reset link
        </SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm">
        <TextButton onClick={() => go({ step: 'sign-in', email })}>Back to sign in</TextButton>
      </p>
    </>
  );
}
