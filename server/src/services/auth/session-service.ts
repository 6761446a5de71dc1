import type { TokenSigner } from '../../lib/access-token';
import { ForbiddenError, UnauthorizedError } from '../../lib/errors';
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
const INVALID_TOKEN = 'Invalid or expired token: sign in again';

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

  async function requireUser(
    appId: string,
    header: string | undefined,
    onBehalfOf?: string,
  ): Promise<UserRow> {
    const result = await check(appId, header);
    if (result.status === 'user') return result.user;
    if (result.status === 'none') throw new UnauthorizedError(SIGN_IN_REQUIRED);
    if (result.status === 'service') {
      // The service role acts for the user named in `on-behalf-of`, as the SDK sends it.
      const behalf = onBehalfOf ? await check(appId, onBehalfOf) : null;
      if (behalf?.status === 'user') return behalf.user;
      throw new UnauthorizedError('The service role needs an on-behalf-of user token here');
    }
    throw new UnauthorizedError(INVALID_TOKEN);
  }

  return {
    check,
    requireUser,
    /** issueToken mints an access token for the user at its current token version. */
    issueToken: (user: UserRow) =>
      deps.signer.mint({ userId: user.id, appId: user.app_id, tokenVersion: user.token_version }),
    /** requireService throws unless the request carries the service token. */
    async requireService(appId: string, header: string | undefined): Promise<void> {
      const result = await check(appId, header);
      if (result.status === 'service') return;
      if (result.status === 'user') throw new ForbiddenError('This call needs the service role');
      throw new UnauthorizedError(result.status === 'none' ? SIGN_IN_REQUIRED : INVALID_TOKEN);
    },
    /** requireAdmin returns the admin user, or null for the service role; anyone else is refused. */
    async requireAdmin(appId: string, header: string | undefined): Promise<UserRow | null> {
      const result = await check(appId, header);
      if (result.status === 'service') return null;
      const user = await requireUser(appId, header);
      if (user.role !== 'admin') throw new ForbiddenError('Only an admin of this app may do this');
      return user;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
