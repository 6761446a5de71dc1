// Agent conversations over HTTP: `/api/apps/{appId}/agents/conversations…`, the v2 and the
// older message paths, and the messaging-channel links (WhatsApp, Telegram) that this server does not
// offer. Turns run in the background; their steps arrive over realtime (agent-pushes.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidInputError, NotFoundError, NotImplementedError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import {
  AddMessageBodySchema,
  AGENTS_BODY_LIMIT,
  AgentsAppParamsSchema,
  ConversationParamsSchema,
  CreateConversationBodySchema,
  ListConversationsQuerySchema,
} from '../schemas/agents';
import type { AgentsService } from '../services/agents/agents-service';
import type { CallerGuard } from './caller-guard';

const CHANNELS = { whatsapp: 'WhatsApp', telegram: 'Telegram' } as const;

const first = (value: unknown) => (Array.isArray(value) ? (value[0] as unknown) : value);

/**
 * listQueryOf reads `listConversations(params)`, whose `q` axios sends in brackets
 * (`q[agent_name]=bot&q[metadata.topic]=x&fields[]=id`), and the top-level `agent_name` some
 * apps send instead. A JSON `q` (the entities' form) is read too. Other filters are refused by name.
 */
function listQueryOf(raw: Record<string, unknown>): unknown {
  const filters: Record<string, unknown> = {};
  const metadata: Record<string, unknown> = {};
  const q = first(raw.q);
  if (typeof q === 'string' && q.length > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(q);
    } catch {
      throw new InvalidInputError('q: must be JSON or bracket parameters (q[agent_name]=…)');
    }
    if (typeof parsed === 'object' && parsed !== null) {
      for (const [key, value] of Object.entries(parsed)) filters[key] = value;
    }
  }
  for (const [key, value] of Object.entries(raw)) {
    const match = /^q\[([^\]]{1,100})\]$/.exec(key);
    if (match?.[1]) filters[match[1]] = first(value);
  }
  const query: Record<string, unknown> = {
    agent_name: first(raw.agent_name),
    sort: first(raw.sort) ?? first(raw.sort_by),
    limit: first(raw.limit),
    skip: first(raw.skip),
  };
  for (const [key, value] of Object.entries(filters)) {
    if (key === 'agent_name' || key === 'created_by_id') query[key] = value;
    else if (key.startsWith('metadata.')) metadata[key.slice('metadata.'.length)] = value;
    else
      throw new InvalidInputError(
        `q[${key.slice(0, 100)}]: conversations can be filtered by agent_name, created_by_id and metadata.<key>`,
      );
  }
  if (Object.keys(metadata).length > 0) query.metadata = metadata;
  const fields = raw['fields[]'] ?? raw.fields;
  if (fields !== undefined) {
    query.fields = (Array.isArray(fields) ? fields : [fields]).flatMap((field) => String(field).split(','));
  }
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
}

/** headersOf is the caller's credentials as the request carried them, for function tools. */
export const headersOf = (request: FastifyRequest) => ({
  authorization: first(request.headers.authorization) as string | undefined,
  'on-behalf-of': first(request.headers['on-behalf-of']) as string | undefined,
});

/** registerAgentsRoutes adds the agents routes. */
export function registerAgentsRoutes(
  app: FastifyInstance,
  deps: { guard: CallerGuard; agents: AgentsService },
): void {
  const { guard, agents } = deps;
  const base = '/api/apps/:appId/agents';
  const bounded = { bodyLimit: AGENTS_BODY_LIMIT };

  app.get(`${base}/conversations`, async (request) => {
    const { appId } = parseInput(AgentsAppParamsSchema, request.params);
    const caller = await guard.dataCaller(request, appId);
    const query = parseInput(
      ListConversationsQuerySchema,
      listQueryOf(request.query as Record<string, unknown>),
    );
    return agents.listConversations(appId, caller, query);
  });

  app.get(`${base}/conversations/:id`, async (request) => {
    const { appId, id } = parseInput(ConversationParamsSchema, request.params);
    return agents.getConversation(appId, await guard.dataCaller(request, appId), id);
  });

  app.post(`${base}/conversations`, bounded, async (request) => {
    const { appId } = parseInput(AgentsAppParamsSchema, request.params);
    const caller = await guard.dataCaller(request, appId);
    const body = parseInput(CreateConversationBodySchema, request.body ?? {});
    return agents.createConversation(appId, caller, body);
  });

  const addMessage = async (request: FastifyRequest) => {
    const { appId, id } = parseInput(ConversationParamsSchema, request.params);
    // Seen in the wild: an app that adds a message before its conversation exists sends the id `undefined`.
    if (id === 'undefined' || id === 'null') {
      throw new NotFoundError(`Conversation ${id} not found: create the conversation first and use its id`);
    }
    const caller = await guard.dataCaller(request, appId);
    const body = parseInput(AddMessageBodySchema, request.body ?? {});
    return agents.addMessage(appId, caller, headersOf(request), id, body);
  };
  app.post(`${base}/conversations/v2/:id/messages`, bounded, addMessage);
  app.post(`${base}/conversations/:id/messages`, bounded, addMessage);

  for (const [path, channel] of Object.entries(CHANNELS)) {
    app.all(`${base}/:agent/${path}`, async () => {
      throw new NotImplementedError(`${channel} is not available on this server: talk to agents in the app`);
    });
  }
}
