import { ForbiddenError, UnauthorizedError } from '../../lib/errors';
import type { UserRow } from '../../store/users-store';
import type { AccessTokens, BearerCheck } from './access-tokens';
import { INVALID_TOKEN, SIGN_IN_REQUIRED } from './access-tokens';
import { userCaller, type Caller } from '../../rules/caller';
import type { AppsService, Standing } from '../apps/apps-service';

export type { Standing };

/**
 * Principal is who a request is, resolved once from its tokens: nobody, a token that is not valid, a
 * disabled account, a user, or the service role (with the user named by `on-behalf-of`, if any).
 */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'invalid' }
  | { kind: 'disabled'; user: UserRow }
  | { kind: 'user'; user: UserRow }
  | { kind: 'service'; onBehalfOf: UserRow | null; functionCall?: true };

/** FUNCTION_TOKEN_REFUSED is the 403 of a function call's token on the operator API or SSO. */
export const FUNCTION_TOKEN_REFUSED =
  "A function's own service token cannot use the admin API or SSO tokens: call them with the server's SERVICE_TOKEN";

/** AccessDecision says whether a standing may reach an app's data, and if not the status and reason. */
export type AccessDecision =
  | { allowed: true }
  | { allowed: false; status: 401; reason: 'auth_required'; message: string }
  | { allowed: false; status: 403; reason: 'user_not_registered'; message: string };

const AUTH_REQUIRED: AccessDecision = {
  allowed: false,
  status: 401,
  reason: 'auth_required',
  message: 'Sign in to use this app: it is private',
};
const NOT_REGISTERED: AccessDecision = {
  allowed: false,
  status: 403,
  reason: 'user_not_registered',
  message: 'You are not registered for this app: ask an admin for access',
};

/** isApproved says whether a user belongs to the app (approved by an admin, invited, or an admin). */
export function isApproved(user: Pick<UserRow, 'approved' | 'role'>): boolean {
  return user.approved || user.role === 'admin';
}

/** standingOf is what visibility rules see of a principal (an invalid token counts as anonymous). */
export function standingOf(principal: Principal): Standing {
  if (principal.kind === 'service') return 'service';
  if (principal.kind === 'user') return isApproved(principal.user) ? 'approved' : 'unapproved';
  if (principal.kind === 'disabled') return 'unapproved';
  return 'anonymous';
}

/**
 * decideDataAccess is the visibility rule for an app's data (entities, integrations, analytics, realtime
 * rooms). `private_with_login` admits only approved users and the service role: anonymous callers are
 * asked to sign in (401 `auth_required`), signed-in users the app does not know are refused (403
 * `user_not_registered`). Open apps (`public_without_login`, `public_with_login`) leave the decision to
 * the entity rules, as public settings do for anonymous visitors.
 */
export function decideDataAccess(visibility: string, standing: Standing): AccessDecision {
  if (visibility !== 'private_with_login') return { allowed: true };
  if (standing === 'approved' || standing === 'service') return { allowed: true };
  return standing === 'anonymous' ? AUTH_REQUIRED : NOT_REGISTERED;
}

/**
 * callerOf is the entity Caller a principal is on an app of visibility, once admitted: the service role,
 * a user, or anonymous. On `public_with_login`, a user the app has not approved is anonymous for data
 * (signing up alone must not open what the rules keep for the app's users); an invalid or disabled token
 * is anonymous here too (dataCaller refuses those before).
 */
export function callerOf(visibility: string, principal: Principal): Caller {
  if (principal.kind === 'service') return { kind: 'service' };
  if (principal.kind !== 'user') return { kind: 'anonymous' };
  if (visibility === 'public_with_login' && !isApproved(principal.user)) return { kind: 'anonymous' };
  return userCaller(principal.user);
}

/**
 * requireSignInUnlessOpen refuses an anonymous caller (401 `auth_required`) of what spends the app's
 * resources (uploads, models, images, extraction, outbound calls) unless the app is `public_without_login`.
 */
export function requireSignInUnlessOpen(visibility: string, caller: Caller, message: string): void {
  if (caller.kind !== 'anonymous' || visibility === 'public_without_login') return;
  throw new UnauthorizedError(message, 'auth_required');
}

/** throwRefusal turns a refusing decision into the domain error the HTTP layer maps. */
function throwRefusal(decision: Exclude<AccessDecision, { allowed: true }>): never {
  if (decision.status === 401) throw new UnauthorizedError(decision.message, decision.reason);
  throw new ForbiddenError(decision.message, decision.reason);
}

function principalOf(check: BearerCheck): Principal {
  if (check.status === 'none') return { kind: 'anonymous' };
  if (check.status === 'invalid') return { kind: 'invalid' };
  if (check.status === 'inactive') return { kind: 'disabled', user: check.user };
  if (check.status === 'user') return { kind: 'user', user: check.user };
  return check.functionCall
    ? { kind: 'service', onBehalfOf: null, functionCall: true }
    : { kind: 'service', onBehalfOf: null };
}

/** SocketAccess is a realtime handshake's identity and whether it may join the app's rooms. */
export interface SocketAccess {
  caller: Caller;
  admitted: boolean;
}

/** DataCallerOptions: badTokenAsAnonymous is for fire-and-forget traffic a stale token must not fail. */
export interface DataCallerOptions {
  badTokenAsAnonymous?: boolean;
}

/** AppAccess resolves callers and applies app visibility, for every route and the socket handshake. */
export interface AppAccess {
  /** identify resolves who a request is from its token (and, for the service role, `on-behalf-of`). */
  identify(
    appId: string,
    authorization: string | undefined,
    onBehalfOf?: string | undefined,
  ): Promise<Principal>;
  /**
   * userPrincipal is who a request bearing a current token of userId would be (unknown user: invalid), so
   * "View as user" resolves that user exactly as the auth path does.
   */
  userPrincipal(appId: string, userId: string): Promise<Principal>;
  /** visibilityOf returns appId's visibility. */
  visibilityOf(appId: string): Promise<string>;
  /** dataCaller is the entity Caller for principal on appId's data, or throws (401/403). */
  dataCaller(appId: string, resolved: Principal, options?: DataCallerOptions): Promise<Caller>;
  /** requireUser returns the signed-in user, or the service role's on-behalf-of user, else throws. */
  requireUser(principal: Principal): UserRow;
  /** requireAdmin returns the admin user, or null for the service role; anyone else is refused. */
  requireAdmin(principal: Principal): UserRow | null;
  /** requireService throws unless principal is the service role by SERVICE_TOKEN, not a function call's. */
  requireService(principal: Principal): void;
  /**
   * requireOperator returns the app's admin user, or null for the service role by SERVICE_TOKEN: the
   * console's calls. A function call's own token is refused (what it holds a function may print).
   */
  requireOperator(principal: Principal): UserRow | null;
  /** admitsAnonymous says whether appId's visibility lets anonymous callers reach its data now. */
  admitsAnonymous(appId: string): Promise<boolean>;
  /** socketAccess resolves a realtime handshake token and whether the app's visibility admits it. */
  socketAccess(appId: string, token: string | null): Promise<SocketAccess>;
  /** socketAccessMany is socketAccess for many sockets' tokens of one app, their users read in one query. */
  socketAccessMany(appId: string, tokens: readonly string[]): Promise<Map<string, SocketAccess>>;
}

/** socketAccessOf is a socket's identity on an app of visibility, and whether that visibility admits it. */
function socketAccessOf(visibility: string, principal: Principal): SocketAccess {
  const caller = callerOf(visibility, principal);
  const standing = caller.kind === 'anonymous' ? 'anonymous' : standingOf(principal);
  return { caller, admitted: decideDataAccess(visibility, standing).allowed };
}

/**
 * createAppAccess resolves callers and applies app visibility, the one place every route and the socket
 * handshake ask "who is this, and may they reach this app's data".
 */
export function createAppAccess(deps: {
  apps: AppsService;
  accessTokens: Pick<AccessTokens, 'check' | 'checkMany' | 'checkUser'>;
}): AppAccess {
  async function identify(
    appId: string,
    authorization: string | undefined,
    onBehalfOf?: string | undefined,
  ): Promise<Principal> {
    const principal = principalOf(await deps.accessTokens.check(appId, authorization));
    if (principal.kind !== 'service' || !onBehalfOf) return principal;
    // The SDK sends `on-behalf-of: Bearer <user>` on service-role calls when the client has a user token.
    const behalf = await deps.accessTokens.check(appId, onBehalfOf);
    return { ...principal, onBehalfOf: behalf.status === 'user' ? behalf.user : null };
  }

  async function visibilityOf(appId: string): Promise<string> {
    return (await deps.apps.findAccessSettings(appId)).visibility;
  }

  /** requireUser returns the signed-in user (or the service role's on-behalf-of user), else throws 401/403. */
  function requireUser(principal: Principal): UserRow {
    if (principal.kind === 'user') return principal.user;
    if (principal.kind === 'service' && principal.onBehalfOf) return principal.onBehalfOf;
    if (principal.kind === 'anonymous') throw new UnauthorizedError(SIGN_IN_REQUIRED);
    if (principal.kind === 'service') {
      throw new UnauthorizedError('The service role needs an on-behalf-of user token here');
    }
    throw new UnauthorizedError(INVALID_TOKEN);
  }

  /** requireAdmin returns the admin user, or null for the service role; anyone else is refused. */
  function requireAdmin(principal: Principal): UserRow | null {
    if (principal.kind === 'service') return null;
    const user = requireUser(principal);
    if (user.role !== 'admin') throw new ForbiddenError('Only an admin of this app may do this');
    return user;
  }

  return {
    identify,
    userPrincipal: async (appId, userId) => principalOf(await deps.accessTokens.checkUser(appId, userId)),
    visibilityOf,
    /**
     * dataCaller is the entity Caller for principal on appId's data, or throws: 401 for an invalid token
     * (anywhere) or an anonymous caller of a private app, 403 for a disabled account or an unapproved user
     * of a private app. The service role stays the service role (it bypasses rules) with or without
     * `on-behalf-of`. badTokenAsAnonymous is for fire-and-forget traffic (analytics) that a stale token
     * must not fail on an open app.
     */
    async dataCaller(appId: string, resolved: Principal, options: DataCallerOptions = {}): Promise<Caller> {
      const bad = resolved.kind === 'invalid' || resolved.kind === 'disabled';
      const principal: Principal = bad && options.badTokenAsAnonymous ? { kind: 'anonymous' } : resolved;
      if (principal.kind === 'invalid') throw new UnauthorizedError(INVALID_TOKEN);
      if (principal.kind === 'disabled') throw new ForbiddenError('This account is disabled');
      const visibility = await visibilityOf(appId);
      const decision = decideDataAccess(visibility, standingOf(principal));
      if (!decision.allowed) throwRefusal(decision);
      return callerOf(visibility, principal);
    },
    requireUser,
    requireAdmin,
    requireOperator(principal: Principal): UserRow | null {
      if (principal.kind === 'service' && principal.functionCall)
        throw new ForbiddenError(FUNCTION_TOKEN_REFUSED);
      return requireAdmin(principal);
    },
    /**
     * requireService throws unless principal is the service role by SERVICE_TOKEN (the operator API and SSO
     * tokens): a function call's own token is refused there, since what it holds a function may print.
     */
    requireService(principal: Principal): void {
      if (principal.kind === 'service' && principal.functionCall)
        throw new ForbiddenError(FUNCTION_TOKEN_REFUSED);
      if (principal.kind === 'service') return;
      if (principal.kind === 'user') throw new ForbiddenError('This call needs the service role');
      throw new UnauthorizedError(principal.kind === 'anonymous' ? SIGN_IN_REQUIRED : INVALID_TOKEN);
    },
    /** admitsAnonymous says whether appId's visibility lets anonymous callers reach its data now. */
    async admitsAnonymous(appId: string): Promise<boolean> {
      return decideDataAccess(await visibilityOf(appId), 'anonymous').allowed;
    },
    /**
     * socketAccess resolves a realtime handshake token: a token that is invalid, expired or disabled is
     * anonymous (the SDK never retries a refused handshake); admitted is the app's visibility rule.
     */
    async socketAccess(appId: string, token: string | null): Promise<SocketAccess> {
      const principal: Principal =
        token && appId ? await identify(appId, `Bearer ${token}`) : { kind: 'anonymous' };
      if (!appId) return { caller: { kind: 'anonymous' }, admitted: false };
      return socketAccessOf(await visibilityOf(appId), principal);
    },
    async socketAccessMany(appId: string, tokens: readonly string[]): Promise<Map<string, SocketAccess>> {
      const answers = new Map<string, SocketAccess>();
      if (!appId || tokens.length === 0) {
        for (const token of tokens) answers.set(token, { caller: { kind: 'anonymous' }, admitted: false });
        return answers;
      }
      const checks = await deps.accessTokens.checkMany(appId, tokens);
      const visibility = await visibilityOf(appId);
      // Tokens of one user (a user's tabs and devices) share one answer: one caller object, whose identity
      // key delivery works out once, not once per socket.
      const shared = new Map<unknown, SocketAccess>();
      for (const [token, check] of checks) {
        const key = 'user' in check ? check.user : `${check.status}:${'functionCall' in check}`;
        let access = shared.get(key);
        if (!access) shared.set(key, (access = socketAccessOf(visibility, principalOf(check))));
        answers.set(token, access);
      }
      return answers;
    },
  };
}
