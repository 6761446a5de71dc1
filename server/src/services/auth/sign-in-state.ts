// The state of an external sign-in between our redirect to the provider and its callback. It travels as the
// OAuth `state` parameter, sealed (AES-256-GCM: signed and unreadable, so the PKCE verifier stays secret),
// holds a hash of a random value set as a cookie on the browser that started it (login CSRF: a callback
// carried to another browser fails), expires after 10 minutes, and is taken once (a shared mark, so a
// replay on another instance fails too).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { InvalidInputError } from '../../lib/errors';
import { openSecret, sealSecret, SecretOpenError } from '../../lib/secret-box';
import { randomId, sha256Hex } from '../../lib/secure-random';

/** SIGN_IN_STATE_TTL_MS is how long a started sign-in may take to come back. */
export const SIGN_IN_STATE_TTL_MS = 10 * 60 * 1000;

const OWNER = ['external-sign-in-state'];

/** SignInStateSchema is what a started sign-in remembers. */
export const SignInStateSchema = z.object({
  app_id: z.string().min(1).max(200),
  provider: z.string().min(1).max(40),
  from_url: z.string().max(4096),
  popup_origin: z.string().max(400).optional(),
  code_verifier: z.string().min(43).max(128),
  nonce: z.string().min(1).max(200),
});
export type SignInState = z.infer<typeof SignInStateSchema>;

const SealedSchema = SignInStateSchema.extend({
  id: z.string().min(1).max(100),
  binding: z.string().length(64),
  expires_at: z.number().int(),
});

/** StateRefusedError says the callback's state is wrong, expired or used; reason names which. */
export class StateRefusedError extends InvalidInputError {
  override name = 'StateRefusedError';
  constructor(
    message: string,
    readonly reason: 'invalid_state' | 'expired_state' | 'used_state',
  ) {
    super(message);
  }
}

/** SignInStatesDeps are the key, a single-use mark shared by every instance, and (in tests) the clock and TTL. */
export interface SignInStatesDeps {
  key: Buffer;
  /** markUsed records id as taken until ttlMs passes and says whether it was free. */
  markUsed(id: string, ttlMs: number): Promise<boolean>;
  now?: () => number;
  ttlMs?: number;
}

/** SignInStates seals a started sign-in into a state and a browser cookie, and takes it back once. */
export interface SignInStates {
  issue(state: SignInState): { state: string; cookie: string };
  take(sealed: string, cookie: string | undefined): Promise<SignInState>;
}

const WRONG = 'This sign-in link is not valid here: start signing in again from the app';

/** createSignInStates returns the sealing and single-use taking of sign-in states. */
export function createSignInStates(deps: SignInStatesDeps): SignInStates {
  const now = deps.now ?? Date.now;
  const ttlMs = deps.ttlMs ?? SIGN_IN_STATE_TTL_MS;
  return {
    issue(state) {
      const cookie = randomBytes(32).toString('base64url');
      const sealed = { ...state, id: randomId(), binding: sha256Hex(cookie), expires_at: now() + ttlMs };
      return { state: sealSecret(deps.key, OWNER, JSON.stringify(sealed)), cookie };
    },
    async take(sealed, cookie) {
      let parsed: z.infer<typeof SealedSchema>;
      try {
        parsed = SealedSchema.parse(JSON.parse(openSecret(deps.key, OWNER, sealed)));
      } catch (error) {
        if (error instanceof SecretOpenError || error instanceof SyntaxError || error instanceof z.ZodError) {
          throw new StateRefusedError(WRONG, 'invalid_state');
        }
        throw error;
      }
      // Another browser (or none) carries this callback: a forced sign-in into someone else's account.
      if (!cookie || sha256Hex(cookie) !== parsed.binding)
        throw new StateRefusedError(WRONG, 'invalid_state');
      if (parsed.expires_at <= now()) {
        throw new StateRefusedError(
          'This sign-in took more than 10 minutes: start signing in again from the app',
          'expired_state',
        );
      }
      if (!(await deps.markUsed(parsed.id, ttlMs))) {
        throw new StateRefusedError(
          'This sign-in was already completed: start signing in again from the app',
          'used_state',
        );
      }
      const { id: _id, binding: _binding, expires_at: _expires, ...state } = parsed;
      return state;
    },
  };
}
