import type { TokenSigner } from '../../lib/access-token';
import { secretMatcher } from '../../lib/secure-random';
import type { UserRow, UsersStore } from '../../store/users-store';

/** BearerCheck is what an Authorization header turned out to be. */
export type BearerCheck =
  | { status: 'none' }
  | { status: 'invalid' }
  | { status: 'service' }
  | { status: 'user'; user: UserRow }
  | { status: 'inactive'; user: UserRow };

/** SIGN_IN_REQUIRED is the message of a 401 when no token was sent. */
export const SIGN_IN_REQUIRED = 'Authentication required: sign in to continue';
/** INVALID_TOKEN is the message of a 401 for a token that is malformed, expired or voided. */
export const INVALID_TOKEN = 'Invalid or expired token: sign in again';

function bearerOf(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/** createSessionService returns who a request is: anonymous, a user, or the service role. */
export function createSessionService(deps: { users: UsersStore; signer: TokenSigner; serviceToken: string }) {
  const isServiceToken = secretMatcher(deps.serviceToken);

  async function check(appId: string, header: string | undefined): Promise<BearerCheck> {
    const token = bearerOf(header);
    if (token === null) return { status: 'none' };
    if (token === '' || token === 'null' || token === 'undefined') return { status: 'invalid' };
    if (isServiceToken(token)) return { status: 'service' };
    const claims = await deps.signer.verify(token, appId);
    if (!claims) return { status: 'invalid' };
    const user = await deps.users.findById(appId, claims.userId);
    // A password, role or disabled change since the token was minted voids it.
    if (!user || user.token_version !== claims.tokenVersion) return { status: 'invalid' };
    return user.disabled ? { status: 'inactive', user } : { status: 'user', user };
  }

  return {
    check,
    /** issueToken mints an access token for the user at its current token version. */
    issueToken: (user: UserRow) =>
      deps.signer.mint({ userId: user.id, appId: user.app_id, tokenVersion: user.token_version }),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
