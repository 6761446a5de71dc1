import type { FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../lib/errors';
import { INVALID_TOKEN, SIGN_IN_REQUIRED } from '../services/identity/access-tokens';
import type { AppAccess, Principal } from '../services/identity/app-access';

/** UserRow is a signed-in principal's account, as the guard hands it to routes. */
export type UserRow = Extract<Principal, { kind: 'user' }>['user'];
import type { AppsService } from '../services/apps/apps-service';
import type { Caller } from '../rules/caller';

/**
 * CallerGuard is the one way routes learn who is calling: the app must exist, the tokens (Authorization and
 * the service role's `on-behalf-of`) are resolved once per request, and data routes apply the app's
 * visibility. Public settings and the auth endpoints use only `principal`, so they stay reachable on a
 * private app.
 */
export interface CallerGuard {
  /** principal resolves the app and the caller's tokens (404 for an unknown app); memoised per request. */
  principal(request: FastifyRequest, appId: string): Promise<Principal>;
  /** dataCaller is principal plus the app's visibility: the Caller for entities, integrations, analytics. */
  dataCaller(
    request: FastifyRequest,
    appId: string,
    options?: { badTokenAsAnonymous?: boolean },
  ): Promise<Caller>;
  /** user is the signed-in user (or the service role's on-behalf-of user), else 401. */
  user(request: FastifyRequest, appId: string): Promise<UserRow>;
  /** admin is the app's admin user, or null for the service role; anyone else gets 401/403. */
  admin(request: FastifyRequest, appId: string): Promise<UserRow | null>;
  /**
   * operator is the app's admin user, or null for the service role by SERVICE_TOKEN (the console's admin
   * endpoints); a function call's own token gets 403, anyone else 401/403.
   */
  operator(request: FastifyRequest, appId: string): Promise<UserRow | null>;
  /** service throws unless the caller is the service role by SERVICE_TOKEN (the operator API). */
  service(request: FastifyRequest, appId: string): Promise<void>;
  /**
   * serviceRole is the service role, a backend function's own included (connectors' tokens are read from
   * functions), with its on-behalf-of user; users get 403, anyone else 401.
   */
  serviceRole(request: FastifyRequest, appId: string): Promise<ServicePrincipal>;
}

/** ServicePrincipal is the service role as the guard hands it over. */
export type ServicePrincipal = Extract<Principal, { kind: 'service' }>;

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers[name];
  return Array.isArray(header) ? header[0] : header;
}

/** createCallerGuard builds the guard on the app-access rules. */
export function createCallerGuard(deps: { apps: AppsService; access: AppAccess }): CallerGuard {
  const resolved = new WeakMap<FastifyRequest, { appId: string; principal: Promise<Principal> }>();

  function principal(request: FastifyRequest, appId: string): Promise<Principal> {
    const known = resolved.get(request);
    if (known?.appId === appId) return known.principal;
    const pending = deps.apps
      .requireApp(appId)
      .then(() =>
        deps.access.identify(appId, request.headers.authorization, headerOf(request, 'on-behalf-of')),
      );
    resolved.set(request, { appId, principal: pending });
    return pending;
  }

  return {
    principal,
    async dataCaller(request, appId, options) {
      return deps.access.dataCaller(appId, await principal(request, appId), options);
    },
    async user(request, appId) {
      return deps.access.requireUser(await principal(request, appId));
    },
    async admin(request, appId) {
      return deps.access.requireAdmin(await principal(request, appId));
    },
    async operator(request, appId) {
      return deps.access.requireOperator(await principal(request, appId));
    },
    async service(request, appId) {
      deps.access.requireService(await principal(request, appId));
    },
    async serviceRole(request, appId) {
      const resolved = await principal(request, appId);
      if (resolved.kind === 'service') return resolved;
      if (resolved.kind === 'user') throw new ForbiddenError('This call needs the service role');
      throw new UnauthorizedError(resolved.kind === 'anonymous' ? SIGN_IN_REQUIRED : INVALID_TOKEN);
    },
  };
}
