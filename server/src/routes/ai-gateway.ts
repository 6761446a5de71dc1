import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotImplementedError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import { GatewayChatSchema, GatewayParamsSchema } from '../schemas/ai-gateway';
import type { AiGateway, GatewayAnswer, GatewayCall } from '../services/llm/ai-gateway';
import type { IntegrationBudget } from '../services/integrations/integration-budget';
import type { Caller } from '../rules/caller';
import type { CallerGuard } from './caller-guard';
import { handleOpenAiError } from './error-map';

/** GATEWAY_PROVIDERS are the `provider`s of the SDK's `aiGateway.connection()`: both speak OpenAI's API. */
export const GATEWAY_PROVIDERS = ['openai', 'typesafe'] as const;

export interface AiGatewayRouteDeps {
  guard: CallerGuard;
  budget: IntegrationBudget;
  gateway: AiGateway;
}

/** callOf is where request comes from; its signal fires when the client's connection closes. */
function callOf(request: FastifyRequest, reply: FastifyReply): GatewayCall {
  const closed = new AbortController();
  reply.raw.once('close', () => closed.abort());
  return { ip: request.ip, signal: closed.signal };
}

function send(reply: FastifyReply, answer: GatewayAnswer) {
  if (answer.kind === 'json') return reply.type('application/json; charset=utf-8').send(answer.text);
  // No proxy may hold the events back (nginx buffers unless told).
  return reply
    .type('text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('x-accel-buffering', 'no')
    .send(Readable.from(answer.events));
}

/**
 * registerAiGatewayRoutes adds `POST …/ai/{provider}/v1/chat/completions` and `GET …/ai/{provider}/v1/models`
 * (the base URL `aiGateway.connection()` hands an app's OpenAI client). As Core integrations: the per-IP
 * budget first, then the caller (a token the server rejects counts as anonymous: an open app's visitors
 * have no token to give their client), the per-user budget; the service asks for sign-in unless the app
 * is public without login. Errors are in OpenAI's shape too, which is what the app's client reads.
 */
export async function registerAiGatewayRoutes(app: FastifyInstance, deps: AiGatewayRouteDeps) {
  async function callerOf(request: FastifyRequest): Promise<{ appId: string; caller: Caller }> {
    const { appId } = parseInput(GatewayParamsSchema, request.params);
    await deps.budget.perIp(request.ip);
    const caller = await deps.guard.dataCaller(request, appId, { badTokenAsAnonymous: true });
    await deps.budget.perCaller(appId, caller);
    // Whatever the body holds, no provider is said first.
    deps.gateway.requireProvider();
    return { appId, caller };
  }

  await app.register(async (scope) => {
    scope.setErrorHandler(handleOpenAiError);
    for (const provider of GATEWAY_PROVIDERS) {
      const base = `/api/apps/:appId/ai/${provider}/v1`;
      scope.post(`${base}/chat/completions`, async (request, reply) => {
        const { appId, caller } = await callerOf(request);
        const input = parseInput(GatewayChatSchema, request.body);
        return send(reply, await deps.gateway.chat(appId, caller, input, callOf(request, reply)));
      });
      scope.get(`${base}/models`, async (request, reply) => {
        const { appId, caller } = await callerOf(request);
        return send(reply, await deps.gateway.models(appId, caller, callOf(request, reply)));
      });
      // Embeddings, responses, images…: said as such (an OpenAI client would read a bare 404 as a wrong URL).
      scope.all(`${base}/*`, async () => {
        throw new NotImplementedError(
          'The AI gateway of this server answers POST chat/completions and GET models only',
        );
      });
    }
  });
}
