import { z } from 'zod';

// The agent files an app ships (`base44/agents/*.jsonc`, `base44/agent-skills/<name>.md`), in the Base44
// CLI's format: unknown keys are kept, and the keys the CLI knows but this server does not act on
// (greetings, workspace skills, memory, context files, connectors) are accepted and kept as written.

/** AGENT_NAME is how apps name agents: lowercase letters, digits, `_` and `-`, 1–100 characters. */
export const AGENT_NAME = /^[a-z0-9_-]{1,100}$/;
/** MAX_SKILL_BODY_CHARS bounds one skill's body (the model reads it through a tool). */
export const MAX_SKILL_BODY_CHARS = 15_000;
/** MAX_INSTRUCTIONS_CHARS bounds an agent's instructions (they go into every model call). */
export const MAX_INSTRUCTIONS_CHARS = 50_000;
/** MAX_AGENT_TOOLS bounds an agent's tool configurations. */
export const MAX_AGENT_TOOLS = 64;

export const EntityToolSchema = z.looseObject({
  entity_name: z.string().min(1).max(100),
  allowed_operations: z
    .array(
      z.enum(['create', 'read', 'update', 'delete'], { error: 'must be create, read, update or delete' }),
    )
    .min(1, 'must list at least one operation')
    .max(4),
});

export const FunctionToolSchema = z.looseObject({
  function_name: z.string().min(1).max(200),
  description: z.string().max(2_000).optional(),
});

/** AgentFileSchema is one `agents/<name>.jsonc`. */
export const AgentFileSchema = z.looseObject({
  name: z.string().regex(AGENT_NAME, 'must be 1–100 lowercase letters, digits, "_" or "-"'),
  description: z.string().max(2_000).optional(),
  instructions: z
    .string()
    .max(MAX_INSTRUCTIONS_CHARS, `must be at most ${MAX_INSTRUCTIONS_CHARS} characters`)
    .default(''),
  tool_configs: z
    .array(
      z.union([EntityToolSchema, FunctionToolSchema], {
        error: 'must be {entity_name, allowed_operations} or {function_name, description}',
      }),
    )
    .max(MAX_AGENT_TOOLS, `must list at most ${MAX_AGENT_TOOLS} tools`)
    .default([]),
  model: z.string().min(1).max(200).optional(),
  whatsapp_greeting: z.string().max(2_000).nullish(),
  telegram_greeting: z.string().max(2_000).nullish(),
  line_greeting: z.string().max(2_000).nullish(),
  selected_skill_names: z.array(z.string().min(1).max(100)).max(50).default([]),
  selected_workspace_skill_ids: z.array(z.string().max(200)).max(50).optional(),
  memory_config: z.unknown().optional(),
  context_files: z.unknown().optional(),
  app_user_connector_configs: z.unknown().optional(),
});

export type AgentFile = z.infer<typeof AgentFileSchema>;

/** SkillFrontMatterSchema is a skill file's front matter. */
export const SkillFrontMatterSchema = z.looseObject({
  description: z.string().min(1, 'must not be empty').max(2_000),
  name: z.string().max(100).optional(),
});
