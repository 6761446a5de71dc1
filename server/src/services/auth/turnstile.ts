import { InvalidInputError } from '../../lib/errors';

/** TurnstileVerifier checks a Cloudflare Turnstile token; without a secret every token passes. */
export type TurnstileVerifier = (token: string | undefined, ip: string) => Promise<void>;

/** createTurnstileVerifier returns a verifier posting to verifyUrl, or a pass-through when secret is unset. */
export function createTurnstileVerifier(secret: string | undefined, verifyUrl: string): TurnstileVerifier {
  if (!secret) return async () => undefined;
  return async (token, ip) => {
    if (!token) throw new InvalidInputError('turnstile_token: is required');
    const form = new URLSearchParams({ secret, response: token, remoteip: ip });
    let success = false;
    try {
      const response = await fetch(verifyUrl, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json()) as { success?: unknown };
      success = response.ok && body.success === true;
    } catch {
      success = false;
    }
    if (!success) throw new InvalidInputError('turnstile_token: verification failed');
  };
}
