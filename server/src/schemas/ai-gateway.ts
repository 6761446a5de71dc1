import { z } from 'zod';

// The AI gateway's wire shapes. A chat body is OpenAI's: the fields the gateway reads or bounds are checked
// here, any other OpenAI field passes through to the provider as sent. The whole body is already within the
// server's body limit (1 MB) and JSON depth (64); what is bounded here is what multiplies the provider's
// work: how many messages, choices and tools, and how deeply one message nests.

/** MAX_GATEWAY_MESSAGES bounds a conversation sent through the gateway. */
export const MAX_GATEWAY_MESSAGES = 256;
/** MAX_MESSAGE_DEPTH bounds one message's nesting (content parts and tool calls are 4 levels deep). */
export const MAX_MESSAGE_DEPTH = 8;
/** MAX_CONTENT_PARTS bounds the parts (text, images) of one message. */
export const MAX_CONTENT_PARTS = 100;
/** MAX_GATEWAY_TOOLS bounds the tools a call offers the model. */
export const MAX_GATEWAY_TOOLS = 128;
/** MAX_CHOICES bounds `n`: each choice is another answer to pay for. */
export const MAX_CHOICES = 8;
/** MAX_TOP_LEVEL_FIELDS bounds the body's own fields (OpenAI's chat call has about 40). */
export const MAX_TOP_LEVEL_FIELDS = 64;

/** depthOf is how deeply value nests arrays and objects (a scalar is 0). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const item of Object.values(value)) deepest = Math.max(deepest, depthOf(item));
  return deepest + 1;
}

const tokenCount = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be positive')
  .nullish();

const GatewayMessageSchema = z
  .looseObject({
    role: z.string({ error: 'is required' }).max(32, 'must be at most 32 characters'),
    content: z
      .union([z.string(), z.array(z.looseObject({ type: z.string().max(64) }))], {
        error: 'must be a string or a list of parts ({type, …})',
      })
      .nullish(),
  })
  // Checked here, not in the union: a union's refusal would not say which bound was passed.
  .refine((message) => !Array.isArray(message.content) || message.content.length <= MAX_CONTENT_PARTS, {
    error: `must have at most ${MAX_CONTENT_PARTS} parts`,
    path: ['content'],
  })
  .refine((message) => depthOf(message) <= MAX_MESSAGE_DEPTH, {
    error: `must not nest deeper than ${MAX_MESSAGE_DEPTH} levels`,
  });

/** GatewayChatSchema is the body of `POST …/ai/{provider}/v1/chat/completions`. */
export const GatewayChatSchema = z
  .looseObject(
    {
      model: z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters').optional(),
      messages: z
        .array(GatewayMessageSchema, { error: 'is required: a list of messages' })
        .min(1, 'must hold at least one message')
        .max(MAX_GATEWAY_MESSAGES, `must hold at most ${MAX_GATEWAY_MESSAGES} messages`),
      stream: z.boolean({ error: 'must be true or false' }).nullish(),
      stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
      max_tokens: tokenCount,
      max_completion_tokens: tokenCount,
      n: z
        .number({ error: 'must be a number' })
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(MAX_CHOICES, `must be at most ${MAX_CHOICES}`)
        .nullish(),
      tools: z
        .array(z.looseObject({}))
        .max(MAX_GATEWAY_TOOLS, `must offer at most ${MAX_GATEWAY_TOOLS} tools`)
        .optional(),
    },
    { error: 'The body must be a JSON object: an OpenAI chat completion request' },
  )
  .refine((body) => Object.keys(body).length <= MAX_TOP_LEVEL_FIELDS, {
    error: `The body has more than ${MAX_TOP_LEVEL_FIELDS} fields`,
  });

export type GatewayChatInput = z.infer<typeof GatewayChatSchema>;

/** GatewayParamsSchema is the path of a gateway call. */
export const GatewayParamsSchema = z.object({ appId: z.string() });
