import { z } from 'zod';
import { AGENT_NAME } from './agent-files';

// The wire shapes of `/api/apps/{appId}/agents/…` (the SDK's `agents` module).

/** MAX_MESSAGE_CHARS bounds a user message's content (text, or an object's JSON). */
export const MAX_MESSAGE_CHARS = 32_000;
/** MAX_METADATA_CHARS bounds a conversation's metadata and a message's extra parts, as JSON. */
export const MAX_METADATA_CHARS = 16_000;
/** AGENTS_BODY_LIMIT is the largest body the agents routes read. */
export const AGENTS_BODY_LIMIT = 256 * 1024;

const jsonWithin = (max: number) => (value: unknown) => JSON.stringify(value ?? null).length <= max;

export const AgentsAppParamsSchema = z.object({ appId: z.string().min(1).max(64) });
export const ConversationParamsSchema = z.object({
  appId: z.string().min(1).max(64),
  id: z.string().min(1).max(100),
});

/** CreateConversationBodySchema is `createConversation({agent_name, metadata?})`. */
export const CreateConversationBodySchema = z.looseObject({
  agent_name: z
    .string({ error: 'agent_name is required' })
    .regex(AGENT_NAME, 'must name an agent of this app'),
  metadata: z
    .record(z.string(), z.unknown(), { error: 'must be an object' })
    .refine(jsonWithin(MAX_METADATA_CHARS), `must be at most ${MAX_METADATA_CHARS} characters as JSON`)
    .optional(),
});

const CustomContextSchema = z.looseObject({
  message: z.string().max(4_000).optional(),
  data: z.unknown().optional(),
  type: z.string().max(100).optional(),
});

/** AddMessageBodySchema is `addMessage(conversation, message)`: a user's message. */
export const AddMessageBodySchema = z.looseObject({
  role: z
    .literal('user', { error: 'only user messages can be added: the agent writes its own' })
    .default('user'),
  content: z.union(
    [
      z.string().max(MAX_MESSAGE_CHARS, `must be at most ${MAX_MESSAGE_CHARS} characters`),
      z
        .record(z.string(), z.unknown())
        .refine(jsonWithin(MAX_MESSAGE_CHARS), `must be at most ${MAX_MESSAGE_CHARS} characters as JSON`),
    ],
    { error: 'must be text or an object' },
  ),
  file_urls: z.array(z.string().max(2_048)).max(10, 'must list at most 10 files').nullish(),
  custom_context: z
    .array(CustomContextSchema)
    .max(20)
    .refine(jsonWithin(MAX_METADATA_CHARS), `must be at most ${MAX_METADATA_CHARS} characters as JSON`)
    .nullish(),
  additional_message_params: z
    .record(z.string(), z.unknown())
    .refine(jsonWithin(MAX_METADATA_CHARS), `must be at most ${MAX_METADATA_CHARS} characters as JSON`)
    .nullish(),
  hidden: z.boolean().optional(),
});

export type AddMessageBody = z.infer<typeof AddMessageBodySchema>;

const count = (max: number, fallback: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(max, `must be at most ${max}`)
    .default(fallback);

/**
 * ListConversationsQuerySchema is `listConversations(params)` once its bracket keys are read
 * (conversationFilterOf in the route): the agent's name and metadata equalities, sort, paging.
 */
export const ListConversationsQuerySchema = z.object({
  agent_name: z.string().max(100).optional(),
  created_by_id: z.string().max(256).optional(),
  metadata: z.record(z.string().max(100), z.string().max(1_000)).optional(),
  sort: z
    .enum(['created_date', '-created_date', 'updated_date', '-updated_date'], {
      error: 'must be created_date or updated_date, optionally with a leading -',
    })
    .default('-created_date'),
  limit: count(500, 50).pipe(z.number().min(1, 'must be at least 1')),
  skip: count(100_000, 0),
  fields: z.array(z.string().max(100)).max(50).optional(),
});

export type ListConversationsQuery = z.infer<typeof ListConversationsQuerySchema>;
