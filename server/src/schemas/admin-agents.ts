import { z } from 'zod';
import { AGENT_NAME } from './agent-files';

// The console's Agents page under `/api/apps/:appId/admin/agents`.

/** MAX_TEST_MESSAGE_CHARS bounds a test chat message: a test of the agent, not a document. */
export const MAX_TEST_MESSAGE_CHARS = 4_000;
/** ADMIN_AGENTS_BODY_LIMIT is the largest body the console's agent routes read. */
export const ADMIN_AGENTS_BODY_LIMIT = 32 * 1024;

const appId = z.string().min(1).max(64);

/** AdminAgentParamsSchema is `/admin/agents/:name/…`. */
export const AdminAgentParamsSchema = z.object({
  appId,
  name: z.string().max(200, 'must be at most 200 characters').regex(AGENT_NAME, 'must be an agent name'),
});

/** AdminConversationParamsSchema is `/admin/agents/conversations/:id…`. */
export const AdminConversationParamsSchema = z.object({
  appId,
  id: z.string().min(1).max(100, 'must be at most 100 characters'),
});

/** AdminConversationsQuerySchema is the conversation browser's page: filters and the keyset cursor. */
export const AdminConversationsQuerySchema = z.object({
  agent: z.string().min(1).max(200, 'must be at most 200 characters').optional(),
  /** user is the creator's email (any case) or id. */
  user: z.string().min(1).max(320, 'must be at most 320 characters').optional(),
  /** before is the last row's `cursor` of the previous page. */
  before: z.string().min(1).max(200, 'must be at most 200 characters').optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(25),
});
export type AdminConversationsQuery = z.infer<typeof AdminConversationsQuerySchema>;

/** TestMessageSchema is one message of the console's test chat. */
export const TestMessageSchema = z.object(
  {
    content: z
      .string({ error: 'must be text' })
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_TEST_MESSAGE_CHARS, `must be at most ${MAX_TEST_MESSAGE_CHARS} characters`),
  },
  { error: 'The body must be a JSON object: {"content": "..."}' },
);
