// Where the SDK's `loginWithProvider` sends the browser: `/api/apps/auth/login` (Google),
// `/api/apps/auth/<provider>/login` and `/api/apps/<appId>/auth/sso/login`; and where the provider sends it
// back: `/api/apps/auth/callback` (or the hosted `/api/apps/auth/final-callback`). The return target and
// popup origin must be ours or CORS_ORIGINS; links are built from PUBLIC_URL or the proven origin, never
// from request headers alone.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { InvalidInputError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import type { ProviderSignInService } from '../services/auth/provider-sign-in-service';
import { PROVIDER_LABELS, type SignInProvider } from '../services/auth/sign-in-providers';
import { errorAnswer, handleError } from './error-map';
import { failurePage, popupPage, unavailablePage } from './provider-sign-in-pages';
import { isReturnOrigin, linkOriginOf, returnTargetOf, strictReturnTarget } from './request-origin';

/** ProviderSignInDeps are the flow and where a visitor may be sent back to. */
export interface ProviderSignInDeps {
  appId: string;
  signIn: ProviderSignInService;
  publicUrl?: string | undefined;
  returnOrigins?: readonly string[] | undefined;
}

/** STATE_COOKIE binds a started sign-in to the browser that started it. */
const STATE_COOKIE = 'base44_sign_in';
const COOKIE_PATH = '/api/apps/auth';

const LoginQuerySchema = z.object({
  app_id: z.string().max(200).optional(),
  from_url: z.string().max(4096).optional(),
  popup_origin: z.string().max(400).optional(),
});
const ProviderSchema = z.object({ provider: z.string().regex(/^[a-z0-9-]{1,40}$/) });
const AppSchema = z.object({ appId: z.string().max(200) });
const CallbackQuerySchema = z.record(z.string().max(64), z.string().max(8192));
/** FORM_CALLBACK_LIMIT bounds a form_post callback (code, state, Apple's `user` and its ID token). */
export const FORM_CALLBACK_LIMIT = 16 * 1024;
const FormCallbackSchema = CallbackQuerySchema.refine((form) => Object.keys(form).length <= 20, {
  message: 'at most 20 fields',
});

function cookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === STATE_COOKIE) return rest.join('=');
  }
  return undefined;
}

function stateCookie(value: string, secure: boolean, maxAge: number): string {
  // Lax: the provider's redirect back is a top-level navigation from another site, which Lax lets through.
  return `${STATE_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** wantsHtml says whether the caller is a browser navigating (a page reads better than JSON there). */
function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * answerSignInError answers as the app's error handler does (the one error map), as a page when a browser
 * navigated here: a sign-in that fails at the callback leaves a person, not a script, reading the answer.
 */
async function answerSignInError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (!wantsHtml(request)) return handleError(error, request, reply);
  const answer = errorAnswer(error, 0);
  if (answer.log) request.log[answer.log.level](answer.log.fields, answer.log.message);
  if (answer.headers) reply.headers(answer.headers);
  return failurePage(reply, answer.status, String(answer.body.message));
}

/** registerProviderSignInRoutes registers the login and callback routes of external sign-in. */
export async function registerProviderSignInRoutes(
  app: FastifyInstance,
  deps: ProviderSignInDeps,
): Promise<void> {
  const callbackUrlOf = (request: FastifyRequest) =>
    `${linkOriginOf(request, deps.publicUrl)}/api/apps/auth/callback`;

  const login = async (
    request: FastifyRequest,
    reply: FastifyReply,
    provider: string,
    appId: string | undefined,
  ) => {
    const query = parseInput(LoginQuerySchema, request.query);
    if ((appId !== undefined && appId !== deps.appId) || !deps.signIn.offers(provider)) {
      const name = Object.hasOwn(PROVIDER_LABELS, provider)
        ? PROVIDER_LABELS[provider as SignInProvider]
        : provider;
      const message = `Sign-in with ${name} is not enabled for this app`;
      if (!wantsHtml(request)) return reply.code(404).send({ message });
      const back = returnTargetOf(request, query.from_url, deps.publicUrl, deps.returnOrigins);
      return unavailablePage(reply, 404, name, back);
    }
    const fromUrl = strictReturnTarget(request, query.from_url, deps.publicUrl, deps.returnOrigins);
    if (fromUrl === null) throw new InvalidInputError('from_url: must be on this app or one of CORS_ORIGINS');
    const popupOrigin = query.popup_origin;
    if (
      popupOrigin !== undefined &&
      !isReturnOrigin(request, popupOrigin, deps.publicUrl, deps.returnOrigins)
    ) {
      throw new InvalidInputError('popup_origin: must be the origin of this app or one of CORS_ORIGINS');
    }
    const callbackUrl = callbackUrlOf(request);
    const started = await deps.signIn.start({ provider, fromUrl, popupOrigin, callbackUrl, ip: request.ip });
    return reply
      .code(302)
      .header('cache-control', 'no-store')
      .header('set-cookie', stateCookie(started.cookie, callbackUrl.startsWith('https:'), 600))
      .header('location', started.location)
      .send();
  };

  const callback = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = new URLSearchParams(parseInput(CallbackQuerySchema, request.query));
    const callbackUrl = callbackUrlOf(request);
    const done = await deps.signIn.finish({ query, cookie: cookieOf(request), callbackUrl, ip: request.ip });
    reply
      .header('cache-control', 'no-store')
      .header('set-cookie', stateCookie('', callbackUrl.startsWith('https:'), 0));
    if (done.popupOrigin) {
      return popupPage(reply, done.popupOrigin, {
        access_token: done.accessToken,
        is_new_user: done.isNewUser,
      });
    }
    const target = new URL(done.fromUrl, linkOriginOf(request, deps.publicUrl));
    target.searchParams.set('access_token', done.accessToken);
    target.searchParams.set('is_new_user', String(done.isNewUser));
    return reply.code(302).header('location', target.href).send();
  };

  await app.register(async (scope) => {
    scope.setErrorHandler(answerSignInError);
    scope.get('/api/apps/auth/login', (request, reply) => {
      const appId = parseInput(LoginQuerySchema, request.query).app_id;
      return login(request, reply, 'google', appId);
    });
    scope.get('/api/apps/auth/:provider/login', (request, reply) =>
      login(request, reply, parseInput(ProviderSchema, request.params).provider, undefined),
    );
    scope.get('/api/apps/:appId/auth/sso/login', (request, reply) =>
      login(request, reply, 'sso', parseInput(AppSchema, request.params).appId),
    );
    scope.get('/api/apps/auth/callback', callback);
    scope.get('/api/apps/auth/final-callback', callback);
    await scope.register(registerFormCallbacks);
  });
}

/**
 * registerFormCallbacks answers a provider's `response_mode=form_post` (Apple): a cross-site POST, which
 * does not carry our SameSite=Lax state cookie. It is answered with a 303 to the GET callback with the same
 * fields, so the browser comes back with a top-level GET that does carry it; the flow then runs once, there.
 * The form parser is registered in this scope only.
 */
async function registerFormCallbacks(scope: FastifyInstance): Promise<void> {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_CALLBACK_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const repost = (path: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      throw new InvalidInputError('The sign-in callback takes a form (application/x-www-form-urlencoded)');
    }
    const form = parseInput(FormCallbackSchema, request.body ?? {});
    // The ID token is not carried into a URL (logs, history): the code exchange fetches it anew.
    delete form.id_token;
    const query = new URLSearchParams(form).toString();
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .header('location', query ? `${path}?${query}` : path)
      .send();
  };
  const options = { bodyLimit: FORM_CALLBACK_LIMIT };
  scope.post('/api/apps/auth/callback', options, repost('/api/apps/auth/callback'));
  scope.post('/api/apps/auth/final-callback', options, repost('/api/apps/auth/final-callback'));
}
