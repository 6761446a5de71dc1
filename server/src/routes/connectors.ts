// The SDK's connector routes (0.8.50 `modules/connectors.js`): the service role reads the app's and a
// user's tokens; a signed-in user connects and disconnects their own; the operator (service role, through
// the CLI) lists, connects and disconnects the app's. The provider comes back to
// `/api/external-auth/callback`, the hosted platform's path, which is the redirect URI to register.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../lib/validation';
import { ConnectorError } from '../services/connectors/connector-errors';
import { APP_OWNER, type ConnectorsService } from '../services/connectors/connectors-service';
import { serviceActorOf } from './audit-actor';
import type { CallerGuard } from './caller-guard';
import { errorAnswer, handleError } from './error-map';
import { messagePage, sendHtmlPage } from './html-page';
import { linkOriginOf, returnTargetOf, strictReturnTarget } from './request-origin';

/** ConnectorsRoutesDeps are the connectors, the guard and the origins a user may be sent back to. */
export interface ConnectorsRoutesDeps {
  connectors: ConnectorsService;
  guard: CallerGuard;
  publicUrl: string | undefined;
  returnOrigins: readonly string[];
}

/** CONNECT_CALLBACK_PATH is where providers send the browser back (register `{PUBLIC_URL}` + this). */
export const CONNECT_CALLBACK_PATH = '/api/external-auth/callback';

const Ref = z.string().min(1).max(100);
const AppParams = z.object({ appId: z.string().min(1).max(200) });
const TypeParams = AppParams.extend({ type: Ref });
const IdParams = AppParams.extend({ id: Ref });
const FromUrlQuery = z.object({ from_url: z.string().max(4096).optional() });
const FromUrlBody = z.object({ from_url: z.string().max(4096).optional() }).nullish();
const CallbackQuery = z.record(z.string().max(64), z.string().max(8192));
const QueryValue = z.union([z.string().max(4096), z.number(), z.boolean()]);
/** CallSchema is callApi's request, as the SDK sends it (bounded: 100 query entries, 50 headers). */
const CallSchema = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
  host: z.string().min(1).max(260).optional(),
  path: z.string().min(1).max(4096),
  query: z
    .record(
      z.string().max(200),
      z.union([QueryValue, z.array(z.union([z.string().max(4096), z.number()])).max(100)]),
    )
    .refine((query) => Object.keys(query).length <= 100, 'at most 100 entries')
    .nullish()
    .transform((query) => query ?? {}),
  headers: z
    .record(
      z
        .string()
        .max(200)
        .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be a header name'),
      z.string().max(8192),
    )
    .refine((headers) => Object.keys(headers).length <= 50, 'at most 50 headers')
    .nullish()
    .transform((headers) => headers ?? {}),
  body: z.unknown().optional(),
});

/** registerConnectorsRoutes registers the connector routes. */
export function registerConnectorsRoutes(app: FastifyInstance, deps: ConnectorsRoutesDeps): void {
  const { connectors, guard } = deps;
  const base = '/api/apps/:appId';
  const redirectUriOf = (request: FastifyRequest) =>
    `${linkOriginOf(request, deps.publicUrl)}${CONNECT_CALLBACK_PATH}`;

  // The service role's reads: the app's connection by type or connector id, and the on-behalf-of user's.
  app.get(`${base}/external-auth/tokens/:type`, async (request) => {
    const { appId, type } = parseInput(TypeParams, request.params);
    await guard.serviceRole(request, appId);
    return connectors.token(type, APP_OWNER);
  });
  app.get(`${base}/external-auth/tokens/connectors/:id`, async (request) => {
    const { appId, id } = parseInput(IdParams, request.params);
    await guard.serviceRole(request, appId);
    return connectors.token(id, APP_OWNER);
  });
  app.get(`${base}/app-user-auth/connectors/:id/token`, async (request) => {
    const { appId, id } = parseInput(IdParams, request.params);
    const service = await guard.serviceRole(request, appId);
    if (!service.onBehalfOf) {
      throw new ConnectorError(
        'app_user_required',
        "This reads a user's own connection: call it with the user's token in on-behalf-of (createClientFromRequest)",
      );
    }
    return connectors.token(id, service.onBehalfOf.id);
  });

  // callApi: one request to the connector's API with the app's connection.
  app.post(`${base}/connectors/:type/call`, async (request) => {
    const { appId, type } = parseInput(TypeParams, request.params);
    await guard.serviceRole(request, appId);
    const call = parseInput(CallSchema, request.body);
    return connectors.call(type, { ...call, body: call.body ?? null });
  });

  // A signed-in user's own connection.
  app.post(`${base}/app-user-auth/connectors/:id/initiate`, async (request) => {
    const { appId, id } = parseInput(IdParams, request.params);
    const user = await guard.user(request, appId);
    const fromUrl =
      parseInput(FromUrlQuery, request.query).from_url ?? parseInput(FromUrlBody, request.body)?.from_url;
    const target =
      fromUrl === undefined
        ? `${linkOriginOf(request, deps.publicUrl)}/`
        : strictReturnTarget(request, fromUrl, deps.publicUrl, deps.returnOrigins);
    if (target === null) {
      throw new ConnectorError('from_url_not_allowed', 'from_url must be on this app or one of CORS_ORIGINS');
    }
    return connectors.startConnect(id, user.id, { redirectUri: redirectUriOf(request), fromUrl: target });
  });
  app.delete(`${base}/app-user-auth/connectors/:id`, async (request) => {
    const { appId, id } = parseInput(IdParams, request.params);
    const user = await guard.user(request, appId);
    return connectors.disconnect(id, user.id);
  });

  // The operator's (the CLI's `connectors list|connect|disconnect`).
  app.get(`${base}/admin/connectors`, async (request) => {
    const { appId } = parseInput(AppParams, request.params);
    await guard.service(request, appId);
    return { connectors: await connectors.list() };
  });
  app.post(`${base}/admin/connectors/:type/connect`, async (request) => {
    const { appId, type } = parseInput(TypeParams, request.params);
    await guard.service(request, appId);
    return connectors.startConnect(type, APP_OWNER, {
      redirectUri: redirectUriOf(request),
      actor: serviceActorOf(request),
    });
  });
  app.delete(`${base}/admin/connectors/:type`, async (request) => {
    const { appId, type } = parseInput(TypeParams, request.params);
    await guard.service(request, appId);
    return connectors.disconnect(type, APP_OWNER, serviceActorOf(request));
  });

  // The provider's answer: a page for the operator's browser, a redirect back for a user.
  app.register(async (scope) => {
    scope.setErrorHandler((error: FastifyError, request, reply) => callbackError(error, request, reply));
    scope.get(CONNECT_CALLBACK_PATH, async (request, reply) => {
      const query = new URLSearchParams(parseInput(CallbackQuery, request.query));
      const done = await connectors.finishConnect(query);
      if (done.kind === 'app') {
        return done.error
          ? sendHtmlPage(
              reply,
              400,
              messagePage(
                `${done.connector} was not connected`,
                `The provider answered "${done.error}": nothing was changed. Run the connect command again.`,
                'alert',
              ),
            )
          : sendHtmlPage(
              reply,
              200,
              messagePage(
                `${done.connector} is connected`,
                `${done.connector} is connected. You can close this window.`,
              ),
            );
      }
      const target = new URL(
        returnTargetOf(request, done.fromUrl, deps.publicUrl, deps.returnOrigins),
        linkOriginOf(request, deps.publicUrl),
      );
      if (done.error) target.searchParams.set('connector_error', done.error);
      return reply.code(303).header('cache-control', 'no-store').header('location', target.href).send();
    });
  });
}

/** callbackError answers a browser with a page (a person reads it), anything else as every route does. */
function callbackError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (!(request.headers.accept ?? '').includes('text/html')) return handleError(error, request, reply);
  const answer = errorAnswer(error, 0);
  if (answer.log) request.log[answer.log.level](answer.log.fields, answer.log.message);
  return sendHtmlPage(
    reply,
    answer.status,
    messagePage('The connection was not made', String(answer.body.message), 'alert'),
  );
}
