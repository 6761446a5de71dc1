import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { TokenSigner } from '../../lib/access-token';
import { randomSecret, secretMatcher } from '../../lib/secure-random';
import type { SignInSessionsStore } from '../../store/sign-in-sessions-store';
import type { UserRow, UsersStore } from '../../store/users-store';
import { createIdentityCache, type IdentityCache } from './identity-cache';

/** BearerCheck is what an Authorization header turned out to be. */
export type BearerCheck =
  | { status: 'none' }
  | { status: 'invalid' }
  | { status: 'service'; functionCall?: true }
  | { status: 'user'; user: UserRow }
  | { status: 'inactive'; user: UserRow };

/** CallToken is a function call's own service-role token; end voids it (the call ended). */
export interface CallToken {
  token: string;
  end(): void;
}

/** SessionEnd is what ending a token's session did: ended it, or found a token bound to no session. */
export type SessionEnd = 'ended' | 'no-session';

/** AccessTokens are the server's access tokens: who a bearer token is, and tokens minted. */
export interface AccessTokens {
  /** check says what an Authorization header is: none, invalid, the service role, or a user. */
  check(appId: string, header: string | undefined): Promise<BearerCheck>;
  /**
   * checkMany is check for many bearer tokens of one app at once (realtime re-validation): the users they
   * name are read in one query, past the identity cache, so each answer is as of now.
   */
  checkMany(appId: string, tokens: readonly string[]): Promise<Map<string, BearerCheck>>;
  /**
   * checkUser is what a current token of userId would check as (the console's "View as user"): the same
   * user read and disabled test as check, or invalid when no such user exists.
   */
  checkUser(appId: string, userId: string): Promise<BearerCheck>;
  /** mintCallToken mints a function call's service-role token, valid for seconds at most and until end(). */
  mintCallToken(appId: string, seconds: number): Promise<CallToken>;
  /** issueToken mints an access token for the user at its current token version. */
  issueToken(user: UserRow): Promise<string>;
  /**
   * startSession mints a token bound to a new sign-in session of user (SESSION_HOURS at most): it counts
   * until endSession, on every instance.
   */
  startSession(user: UserRow): Promise<string>;
  /** endSession ends the session of a checked bearer header's token. */
  endSession(appId: string, header: string | undefined): Promise<SessionEnd>;
}

/** SESSION_HOURS is how long a session-bound token lives at most (a working day, then sign in again). */
export const SESSION_HOURS = 12;

/** SIGN_IN_REQUIRED is the message of a 401 when no token was sent. */
export const SIGN_IN_REQUIRED = 'Authentication required: sign in to continue';
/** INVALID_TOKEN is the message of a 401 for a token that is malformed, expired or voided. */
export const INVALID_TOKEN = 'Invalid or expired token: sign in again';

/** MAX_VERIFIED_TOKENS bounds the tokens whose signature is remembered as checked. */
const MAX_VERIFIED_TOKENS = 10_000;

/** USERS_PER_QUERY is how many users one query of checkMany reads. */
const USERS_PER_QUERY = 500;

/** mintedServiceRole says whether token claims the service role (cheap: the signature is checked after). */
function mintedServiceRole(token: string): boolean {
  try {
    return decodeJwt(token).role === 'service';
  } catch {
    return false;
  }
}

/** VerifiedToken is what a token's checked signature vouches for, until expiresMs. */
type VerifiedToken =
  | { kind: 'service'; callId: string; expiresMs: number }
  | { kind: 'user'; userId: string; tokenVersion: number; sessionId?: string | undefined; expiresMs: number };

/** UserClaims are what a user's verified token names: the user, its version, its session if any. */
type UserClaims = { userId: string; tokenVersion: number; sessionId?: string | undefined };

/** expiryOf is a verified token's `exp` in ms (the signer requires `exp`, so it is always there). */
const expiryOf = (token: string) => Number(decodeJwt(token).exp) * 1000;

function bearerOf(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/**
 * createAccessTokens returns the access tokens of this server: who a bearer token is (anonymous, a user at
 * the token's version, or the service role) and tokens minted for users. The user's row decides whether a
 * token still counts (its token version, disabled flag), read through `identities` so that an authenticated
 * request usually does not reach the database. A token minted for a sign-in session also needs its session
 * row: one indexed read per request, paid only by session tokens (the console's).
 */
export function createAccessTokens(deps: {
  users: UsersStore;
  sessions: Pick<SignInSessionsStore, 'start' | 'live' | 'end'>;
  signer: TokenSigner;
  serviceToken: string;
  identities?: IdentityCache | undefined;
  now?: () => number;
}): AccessTokens {
  const isServiceToken = secretMatcher(deps.serviceToken);
  const identities = deps.identities ?? createIdentityCache();
  const now = deps.now ?? Date.now;
  // A token's signature is checked once: its claims cannot change, only its expiry comes (checked each time).
  // The lookup comes first, so a known token is neither decoded nor verified again.
  const verified = new Map<string, VerifiedToken>();
  // The calls whose minted token still counts: a call's token ends with it (echoed by a function, it would
  // otherwise be the service role for its whole lifetime). Function calls reach the API of the instance
  // that runs them (its loopback address), so this instance's own set is the whole truth.
  const liveCalls = new Set<string>();

  async function verify(token: string, appId: string): Promise<VerifiedToken | null> {
    // A function call's own short-lived service token (minted per call; see services/functions/).
    if (mintedServiceRole(token)) {
      const callId = await deps.signer.verifyService(token, appId);
      return callId ? { kind: 'service', callId, expiresMs: expiryOf(token) } : null;
    }
    const claims = await deps.signer.verify(token, appId);
    return claims ? { kind: 'user', ...claims, expiresMs: expiryOf(token) } : null;
  }

  async function verifiedOnce(token: string, appId: string): Promise<VerifiedToken | null> {
    const key = `${appId}\u0000${token}`;
    const known = verified.get(key);
    if (known) {
      if (known.expiresMs > now()) return known;
      verified.delete(key);
    }
    const fresh = await verify(token, appId);
    if (!fresh) return null;
    verified.set(key, fresh);
    if (verified.size > MAX_VERIFIED_TOKENS) verified.delete(verified.keys().next().value as string);
    return fresh;
  }

  /** claimsOf is what token vouches for before its user is read: a check, or the user's claims. */
  async function claimsOf(appId: string, token: string): Promise<BearerCheck | UserClaims> {
    if (token === '' || token === 'null' || token === 'undefined') return { status: 'invalid' };
    if (isServiceToken(token)) return { status: 'service' };
    const claims = await verifiedOnce(token, appId);
    if (!claims) return { status: 'invalid' };
    if (claims.kind === 'service') {
      return liveCalls.has(claims.callId) ? { status: 'service', functionCall: true } : { status: 'invalid' };
    }
    return claims;
  }

  /** userCheck is a user token's check, given the row its user id names now. */
  function userCheck(user: UserRow | null | undefined, tokenVersion: number): BearerCheck {
    // A password, role or disabled change since the token was minted voids it.
    if (!user || user.token_version !== tokenVersion) return { status: 'invalid' };
    return user.disabled ? { status: 'inactive', user } : { status: 'user', user };
  }

  async function check(appId: string, header: string | undefined): Promise<BearerCheck> {
    const token = bearerOf(header);
    if (token === null) return { status: 'none' };
    const claims = await claimsOf(appId, token);
    if ('status' in claims) return claims;
    const user = await identities.find(appId, claims.userId, () => deps.users.findById(appId, claims.userId));
    const checked = userCheck(user, claims.tokenVersion);
    if (checked.status === 'invalid' || !claims.sessionId) return checked;
    const live = await deps.sessions.live(appId, [claims.sessionId]);
    return live.has(claims.sessionId) ? checked : { status: 'invalid' };
  }

  async function checkMany(appId: string, tokens: readonly string[]): Promise<Map<string, BearerCheck>> {
    const checks = new Map<string, BearerCheck>();
    const claimed = new Map<string, UserClaims>();
    for (const token of new Set(tokens)) {
      const claims = await claimsOf(appId, token);
      if ('status' in claims) checks.set(token, claims);
      else claimed.set(token, claims);
    }
    const ids = [...new Set([...claimed.values()].map((claims) => claims.userId))];
    const users = new Map<string, UserRow>();
    for (let start = 0; start < ids.length; start += USERS_PER_QUERY) {
      const rows = await deps.users.findByIds(appId, ids.slice(start, start + USERS_PER_QUERY));
      for (const user of rows) users.set(user.id, user);
    }
    const sessionIds = [...claimed.values()].flatMap((claims) =>
      claims.sessionId ? [claims.sessionId] : [],
    );
    const liveSessions = new Set<string>();
    for (let start = 0; start < sessionIds.length; start += USERS_PER_QUERY) {
      for (const id of await deps.sessions.live(appId, sessionIds.slice(start, start + USERS_PER_QUERY)))
        liveSessions.add(id);
    }
    for (const [token, claims] of claimed) {
      const ended = claims.sessionId !== undefined && !liveSessions.has(claims.sessionId);
      checks.set(
        token,
        ended ? { status: 'invalid' } : userCheck(users.get(claims.userId), claims.tokenVersion),
      );
    }
    return checks;
  }

  return {
    check,
    checkMany,
    async checkUser(appId: string, userId: string): Promise<BearerCheck> {
      const user = await identities.find(appId, userId, () => deps.users.findById(appId, userId));
      return userCheck(user, user?.token_version ?? -1);
    },
    /**
     * mintCallToken mints the service-role token of one function call of appId, valid for at most seconds
     * and until end() is called (the call ended).
     */
    async mintCallToken(appId: string, seconds: number): Promise<CallToken> {
      const callId = randomUUID();
      const token = await deps.signer.mintService(appId, seconds, callId);
      liveCalls.add(callId);
      return { token, end: () => liveCalls.delete(callId) };
    },
    /** issueToken mints an access token for the user at its current token version. */
    issueToken: (user: UserRow) =>
      deps.signer.mint({ userId: user.id, appId: user.app_id, tokenVersion: user.token_version }),
    async startSession(user: UserRow): Promise<string> {
      const sessionId = randomSecret();
      const expiresAt = new Date(now() + SESSION_HOURS * 3_600_000);
      await deps.sessions.start({ id: sessionId, appId: user.app_id, userId: user.id, expiresAt });
      const claims = { userId: user.id, appId: user.app_id, tokenVersion: user.token_version, sessionId };
      return deps.signer.mint(claims, `${SESSION_HOURS}h`);
    },
    async endSession(appId: string, header: string | undefined): Promise<SessionEnd> {
      const token = bearerOf(header);
      const claims = token ? await claimsOf(appId, token) : null;
      if (!claims || 'status' in claims || !claims.sessionId) return 'no-session';
      await deps.sessions.end(appId, claims.sessionId);
      return 'ended';
    },
  };
}
