import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { StepProps } from '../lib/login-view';
import { LEAVING, useSubmit } from '../lib/use-submit';
import { SubmitButton, TextButton } from './buttons';
import { FormError, FormNotice } from './form-messages';
import { ViewHeading } from './view-heading';

interface VerifyCodeFormProps extends StepProps {
  email: string;
  password: string;
  notice?: string;
}

/** VerifyCodeForm confirms the mailed 6-digit code, then signs the new account in. */
export function VerifyCodeForm({ api, go, finish, email, password, notice }: VerifyCodeFormProps) {
  const [code, setCode] = useState('');
  const [resent, setResent] = useState<string | null>(notice ?? null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  // The code is what the visitor types next, so the field (described by the intro) takes focus.
  useEffect(() => input.current?.focus(), []);

  const verify = useSubmit(
    useCallback(async () => {
      const token = (await api.verifyCode(email, code.trim())) ?? (await api.signIn(email, password));
      finish(token);
      return LEAVING;
    }, [api, email, code, password, finish]),
  );
  const resend = useSubmit(
    useCallback(async () => {
      setResent(null);
      await api.resendCode(email);
      setResent(`We sent a new code to ${email}.`);
    }, [api, email]),
  );

  return (
    <>
      <ViewHeading title="Check your email" focusOnShow={false}>
        <p id={`${id}-intro`}>
          We sent a 6-digit code to <strong className="break-all text-gold-100">{email}</strong>. Enter it
          below to finish creating your account.
        </p>
      </ViewHeading>
      <FormNotice message={resent} />
      <form onSubmit={verify.submit}>
        <div className="mb-4">
          <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-white/90">
            Verification code
          </label>
          <input
            ref={input}
            id={id}
            name="one-time-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            aria-describedby={`${id}-intro`}
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
            className="block min-h-11 w-full rounded-lg border border-white/40 bg-royal-950/80 px-3.5 py-2 text-center font-mono text-2xl tracking-[0.5em] text-white focus-visible:border-gold-300"
          />
        </div>
        <FormError message={verify.error ?? resend.error} />
        <SubmitButton busy={verify.busy} busyLabel="Verifying…">
          Verify and continue
        </SubmitButton>
      </form>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3 text-sm">
        <TextButton onClick={() => void resend.submit()} busy={resend.busy}>
          {resend.busy ? 'Sending…' : 'Resend code'}
        </TextButton>
        <TextButton onClick={() => go({ step: 'sign-up', email })}>Use a different email</TextButton>
      </div>
    </>
  );
}
