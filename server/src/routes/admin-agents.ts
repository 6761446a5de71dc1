// The console's Agents page under `/api/apps/:appId/admin/agents`: the project's agents, the conversation
// browser (any user's, read-only), and the test chat: a test conversation of the signed-in admin, its
// messages, and `live`, a server-sent-events stream of the turn's steps as they are pushed.
// Admins or SERVICE_TOKEN only; a function call's own token is refused.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TooManyRequestsError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import {
  ADMIN_AGENTS_BODY_LIMIT,
  AdminAgentParamsSchema,
  AdminConversationParamsSchema,
  AdminConversationsQuerySchema,
  TestMessageSchema,
} from '../schemas/admin-agents';
import { AppParamsSchema } from '../schemas/apps';
import type { AgentsConsole } from '../services/admin/agents-console';
import { headersOf } from './agents';
import type { CallerGuard } from './caller-guard';
import { createEventStreams, sendEvent } from './event-streams';

export interface AdminAgentRoutesDeps {
  guard: Pick<CallerGuard, 'operator' | 'dataCaller'>;
  console: AgentsConsole;
}

/** registerAdminAgentRoutes adds the Agents page's endpoints. */
export function registerAdminAgentRoutes(app: FastifyInstance, deps: AdminAgentRoutesDeps): void {
  const base = '/api/apps/:appId/admin/agents';
  const bounded = { bodyLimit: ADMIN_AGENTS_BODY_LIMIT };
  /** operatorCaller admits the console's callers and is the Caller a test turn runs as. */
  const operatorCaller = async (request: FastifyRequest, appId: string) => {
    await deps.guard.operator(request, appId);
    return deps.guard.dataCaller(request, appId);
  };

  app.get(base, async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.operator(request, appId);
    return { agents: deps.console.list() };
  });

  app.get(`${base}/conversations`, async (request) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.operator(request, appId);
    return deps.console.conversations(appId, parseInput(AdminConversationsQuerySchema, request.query));
  });

  app.get(`${base}/conversations/:id`, async (request) => {
    const { appId, id } = parseInput(AdminConversationParamsSchema, request.params);
    await deps.guard.operator(request, appId);
    return deps.console.conversation(appId, id);
  });

  app.post(`${base}/:name/test-conversations`, bounded, async (request) => {
    const { appId, name } = parseInput(AdminAgentParamsSchema, request.params);
    return deps.console.startTest(appId, await operatorCaller(request, appId), name);
  });

  app.post(`${base}/conversations/:id/test-messages`, bounded, async (request) => {
    const { appId, id } = parseInput(AdminConversationParamsSchema, request.params);
    const caller = await operatorCaller(request, appId);
    const { content } = parseInput(TestMessageSchema, request.body ?? {});
    return deps.console.sendTest(appId, caller, headersOf(request), id, content);
  });

  const streams = createEventStreams(app);
  app.get(`${base}/conversations/:id/live`, async (request, reply) => {
    const { appId, id } = parseInput(AdminConversationParamsSchema, request.params);
    const holder = streams.admit(await deps.guard.operator(request, appId));
    const unwatch = await deps.console.watch(appId, id, (data) => sendEvent(reply.raw, 'message', data));
    if (!unwatch) throw new TooManyRequestsError('Too many live test chats: try again later', 30);
    streams.start(reply, holder, unwatch);
  });
}
