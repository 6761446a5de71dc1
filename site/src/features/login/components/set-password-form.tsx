import { useCallback, useState } from 'react';
import { useLoginCopy } from '../lib/login-copy';
import type { StepProps } from '../lib/login-view';
import { LEAVING, useSubmit } from '../lib/use-submit';
import { SubmitButton, TextButton } from './buttons';
import { FormError } from './form-messages';
import { EmailField, NewPasswordField, TextField } from './text-field';
import { ViewHeading } from './view-heading';

interface SetPasswordFormProps extends StepProps {
  /** token is the mailed reset or invite token. */
  token: string;
  /** invite asks for the invited email too, and signs in once the password is set. */
  invite: boolean;
}

const MISMATCH = 'The two passwords do not match.';

/** SetPasswordForm spends a mailed reset or invite link to choose a password. */
export function SetPasswordForm({ api, go, finish, focusOnShow, token, invite }: SetPasswordFormProps) {
  const copy = useLoginCopy();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');

  const { busy, error, setError, submit } = useSubmit(
    useCallback(async () => {
      const message = await api.setPassword(token, password);
      const notice = message ?? 'Your password has been set: sign in with it';
      if (!invite) {
        go({ step: 'sign-in', notice });
        return;
      }
      try {
        finish(await api.signIn(email, password));
        return LEAVING;
      } catch {
        // The password is set either way; a typo in the email only means signing in by hand.
        go({ step: 'sign-in', notice });
      }
    }, [api, token, password, invite, email, finish, go]),
  );

  return (
    <>
      <ViewHeading
        title={invite ? 'Accept your invitation' : 'Choose a new password'}
        focusOnShow={focusOnShow}
      >
        <p>
          {invite
            ? `${copy.invited} Set a password for the invited email address to join.`
            : 'Pick a new password for your account. The link works once.'}
        </p>
      </ViewHeading>
      <form
        onSubmit={(event) => {
          if (password !== confirm) {
            event.preventDefault();
            setError(MISMATCH);
            return;
          }
          void submit(event);
        }}
      >
        {invite && (
          <EmailField
            label="Invited email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        )}
        <NewPasswordField value={password} onChange={(event) => setPassword(event.target.value)} />
        <TextField
          label="Confirm new password"
          type="password"
          name="confirm-password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
        <FormError message={error} />
        <SubmitButton busy={busy} busyLabel={invite ? 'Joining…' : 'Saving…'}>
          {invite ? 'Set password and sign in' : 'Set new password'}
        </SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm">
        <TextButton onClick={() => go({ step: 'sign-in' })}>Back to sign in</TextButton>
      </p>
    </>
  );
}
