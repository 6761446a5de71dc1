// Who a token is: the signer of access tokens, the users rows behind them (cached, retired on every write,
// on every instance), and the token checks built on both. Built once; accounts and the caller guard share it.
import { createTokenSigner, type TokenSigner } from '../../lib/access-token';
import type { ServerSecrets } from '../../lib/secrets-file';
import type { RealtimeHub } from '../../realtime/realtime-hub';
import type { SignInSessionsStore } from '../../store/sign-in-sessions-store';
import type { UsersStore } from '../../store/users-store';
import { createAccessTokens, type AccessTokens } from './access-tokens';
import { createIdentityCache, forgettingWrites } from './identity-cache';

/** Identity is the token side of accounts: every write to a user goes through `users`. */
export interface Identity {
  signer: TokenSigner;
  /** users is the users store whose writes retire the cached row on every instance. */
  users: UsersStore;
  tokens: AccessTokens;
}

/** createIdentity builds the signer, the cached users store and the access tokens on them. */
export function createIdentity(input: {
  secrets: Pick<ServerSecrets, 'jwtSecret' | 'serviceToken'>;
  /** jwtExpiresIn is how long a minted access token lives (JWT_EXPIRES_IN). */
  jwtExpiresIn: string;
  users: UsersStore;
  /** sessions are the sign-in sessions that session-bound tokens need alive. */
  sessions: SignInSessionsStore;
  /** hub tells other instances which users changed, so none trusts a stale row (none: expiry only). */
  hub?: Pick<RealtimeHub, 'dispatch' | 'handle'> | undefined;
}): Identity {
  const signer = createTokenSigner(input.secrets.jwtSecret, input.jwtExpiresIn);
  const identities = createIdentityCache({ hub: input.hub });
  const users = forgettingWrites(input.users, identities);
  const tokens = createAccessTokens({
    users,
    sessions: input.sessions,
    signer,
    serviceToken: input.secrets.serviceToken,
    identities,
  });
  return { signer, users, tokens };
}
