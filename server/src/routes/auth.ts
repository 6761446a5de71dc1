import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import {
  ChangePasswordSchema,
  EmailOnlySchema,
  LoginSchema,
  LogoutQuerySchema,
  RegisterSchema,
  ResetPasswordSchema,
  UserParamsSchema,
  VerifyOtpSchema,
} from '../schemas/auth';
import type { RequestOrigin } from '../services/auth/account-deps';
import type { SignInService } from '../services/auth/sign-in-service';
import type { SignUpService } from '../services/auth/sign-up-service';
import type { UsersService } from '../services/auth/users-service';
import type { CallerGuard } from './caller-guard';
import { linkOriginOf, returnTargetOf } from './request-origin';

/** SESSION_NEEDS_USER_TOKEN is the 403 of a session asked for with the service role's token. */
const SESSION_NEEDS_USER_TOKEN =
  "A sign-in session starts from a user's own token or password, not the service role";

/** AuthRoutesDeps is what the `auth/*` routes need. */
export interface AuthRoutesDeps {
  signUp: SignUpService;
  signIn: SignInService;
  users: UsersService;
  guard: CallerGuard;
  publicUrl: string | undefined;
  /** returnOrigins are other origins (CORS_ORIGINS) sign-out may send the browser back to. */
  returnOrigins?: readonly string[];
}

/** requestOrigin is the caller's IP (for throttling) and, when asked, the origin mailed links point to. */
function requestOrigin(request: FastifyRequest, publicUrl: string | undefined): RequestOrigin {
  return { ip: request.ip, linkOrigin: () => linkOriginOf(request, publicUrl) };
}

/**
 * registerAuthRoutes adds `/api/apps/:appId/auth/*` (sign-up, one-time codes, sign-in and sign-in sessions,
 * password reset and change, the service role's SSO tokens) and `/api/apps/auth/logout`.
 */
export function registerAuthRoutes(app: FastifyInstance, deps: AuthRoutesDeps): void {
  const base = '/api/apps/:appId/auth';
  const from = (request: FastifyRequest) => requestOrigin(request, deps.publicUrl);
  const appIdOf = (request: FastifyRequest) => parseInput(AppParamsSchema, request.params).appId;

  app.post(`${base}/register`, async (request) =>
    deps.signUp.register(appIdOf(request), parseInput(RegisterSchema, request.body), from(request)),
  );
  app.post(`${base}/verify-otp`, async (request) =>
    deps.signUp.verifyOtp(appIdOf(request), parseInput(VerifyOtpSchema, request.body), from(request)),
  );
  app.post(`${base}/resend-otp`, async (request) => {
    const { email } = parseInput(EmailOnlySchema, request.body);
    return deps.signUp.resendOtp(appIdOf(request), email, from(request));
  });
  app.post(`${base}/login`, async (request) =>
    deps.signIn.login(appIdOf(request), parseInput(LoginSchema, request.body), from(request)),
  );
  // A sign-in session (the console's): from a password, or traded for a token the caller already holds
  // (after a provider's sign-in). Its token counts until DELETE …/sessions/current, on every instance.
  app.post(`${base}/sessions`, async (request) => {
    const appId = appIdOf(request);
    if (request.body === undefined || request.body === null) {
      // The user's own token only: the service role acting on behalf of a user starts no session for them.
      const principal = await deps.guard.principal(request, appId);
      if (principal.kind === 'service') throw new ForbiddenError(SESSION_NEEDS_USER_TOKEN);
      return deps.signIn.startSession(await deps.guard.user(request, appId), from(request));
    }
    return deps.signIn.login(appId, parseInput(LoginSchema, request.body), from(request), 'session');
  });
  app.delete(`${base}/sessions/current`, async (request) => {
    const appId = appIdOf(request);
    await deps.guard.user(request, appId);
    return deps.signIn.endSession(appId, request.headers.authorization);
  });
  app.post(`${base}/reset-password-request`, async (request) => {
    const { email } = parseInput(EmailOnlySchema, request.body);
    return deps.signIn.requestReset(appIdOf(request), email, from(request));
  });
  app.post(`${base}/reset-password`, async (request) =>
    deps.signIn.resetPassword(appIdOf(request), parseInput(ResetPasswordSchema, request.body), from(request)),
  );
  app.post(`${base}/change-password`, async (request) => {
    const appId = appIdOf(request);
    const caller = await deps.guard.user(request, appId);
    return deps.signIn.changePassword(caller, parseInput(ChangePasswordSchema, request.body), from(request));
  });

  app.get(`${base}/sso/accesstoken/:userId`, async (request) => {
    const { appId, userId } = parseInput(UserParamsSchema, request.params);
    await deps.guard.service(request, appId);
    return deps.users.ssoAccessToken(appId, userId);
  });

  app.get(`${base}/sso/idtoken/:userId`, async (request, reply) => {
    const { appId, userId } = parseInput(UserParamsSchema, request.params);
    await deps.guard.service(request, appId);
    const token = await deps.users.ssoIdToken(appId, userId);
    // A JSON string body: the SDK hands it back as the raw token string.
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(token));
  });

  // The SDK's tokens live in the browser, so there is no session to end here: only the redirect, kept on
  // this site. (Session-bound tokens end with DELETE …/auth/sessions/current.)
  app.get('/api/apps/auth/logout', async (request, reply) => {
    const query = LogoutQuerySchema.safeParse(request.query);
    const fromUrl = query.success ? query.data.from_url : undefined;
    const target = returnTargetOf(request, fromUrl, deps.publicUrl, deps.returnOrigins);
    return reply.header('cache-control', 'no-store').redirect(target, 302);
  });
}
