import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import {
  ChangePasswordSchema,
  EmailOnlySchema,
  LoginSchema,
  RegisterSchema,
  ResetPasswordSchema,
  VerifyOtpSchema,
} from '../schemas/auth';
import type { RequestOrigin } from '../services/auth/account-deps';
import type { SignInService } from '../services/auth/sign-in-service';
import type { SignUpService } from '../services/auth/sign-up-service';
import type { CallerGuard } from './caller-guard';
import { linkOriginOf } from './request-origin';

/** AuthRoutesDeps is what the `auth/*` routes need. */
export interface AuthRoutesDeps {
  signUp: SignUpService;
  signIn: SignInService;
  guard: CallerGuard;
  publicUrl: string | undefined;
}

/** requestOrigin is the caller's IP (for throttling) and, when asked, the origin mailed links point to. */
function requestOrigin(request: FastifyRequest, publicUrl: string | undefined): RequestOrigin {
  return { ip: request.ip, linkOrigin: () => linkOriginOf(request, publicUrl) };
}

/** registerAuthRoutes adds sign-up, one-time codes, sign-in, password reset and password change. */
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
}
