import { useState, type FormEvent } from 'react';
import type { SignInProviderId } from '../../../page-contract/page-contract';
import { providerLabel } from '../../../lib/provider-sign-in';
import { ConsoleApiError } from '../api/console-api';
import { ProviderPopupError } from '../lib/provider-popup';

/** ConsoleSignInChoices are the app's external providers (boot data); none: email and password only. */
export interface ConsoleSignInChoices {
  providers: readonly SignInProviderId[];
  ssoName?: string | undefined;
}

interface SignInScreenProps {
  signIn: (email: string, password: string) => Promise<void>;
  choices?: ConsoleSignInChoices | undefined;
  signInWithProvider?: ((provider: SignInProviderId) => Promise<void>) | undefined;
}

/**
 * SignInScreen is the console's own sign-in: a "Continue with …" button per provider the app enables (a
 * popup), then email and password; the server's message inline.
 */
export function SignInScreen({ signIn, choices, signInWithProvider }: SignInScreenProps) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function continueWith(provider: SignInProviderId) {
    if (!signInWithProvider) return;
    setBusy(true);
    setError(null);
    try {
      await signInWithProvider(provider);
    } catch (failure) {
      setError(
        failure instanceof ProviderPopupError ? failure.message : 'Could not sign in. Please try again.',
      );
      setBusy(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await signIn(String(form.get('email') ?? ''), String(form.get('password') ?? ''));
    } catch (failure) {
      setError(failure instanceof ConsoleApiError ? failure.message : 'Could not sign in. Please try again.');
      setBusy(false);
    }
  }

  return (
    <main className="mx-auto mt-[12vh] max-w-sm px-6">
      <h1 className="text-2xl font-semibold text-gold-100">Console sign-in</h1>
      <p className="mt-2 text-gray-300">For the app&apos;s admins.</p>
      {choices && choices.providers.length > 0 && (
        <ul className="mt-6 flex flex-col gap-3" aria-label="Other ways to sign in">
          {choices.providers.map((provider) => (
            <li key={provider}>
              <button
                type="button"
                disabled={busy}
                onClick={() => void continueWith(provider)}
                className="w-full rounded border border-gold-300/60 px-4 py-2 font-semibold text-white hover:border-gold-200 disabled:opacity-70"
              >
                {providerLabel(provider, choices.ssoName)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(event) => void submit(event)} className="mt-6 flex flex-col gap-4">
        <label className="flex flex-col gap-1">
          Email
          <input name="email" type="email" autoComplete="username" required className={FIELD} />
        </label>
        <label className="flex flex-col gap-1">
          Password
          <input name="password" type="password" autoComplete="current-password" required className={FIELD} />
        </label>
        {error && (
          <p role="alert" className="text-red-200">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy} className={BUTTON}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

/** AdminsOnly is what a signed-in user who is not an admin sees. */
export function AdminsOnly({ email, signOut }: { email: string; signOut: () => void }) {
  return (
    <main className="mx-auto mt-[12vh] max-w-md px-6">
      <h1 className="text-2xl font-semibold text-gold-100">Admins only</h1>
      <p className="mt-3 text-gray-200">
        You are signed in as {email}, who is not an admin of this app. Ask an admin to give you the admin
        role, or sign in with another account.
      </p>
      <button type="button" onClick={signOut} className={`${BUTTON} mt-6`}>
        Sign out
      </button>
    </main>
  );
}

export const FIELD =
  'rounded border border-royal-600 bg-royal-900 px-3 py-2 text-white focus:border-gold-200 focus:outline-none';
export const BUTTON =
  'rounded bg-gold-200 px-4 py-2 font-semibold text-royal-950 hover:bg-gold-100 disabled:opacity-70';
