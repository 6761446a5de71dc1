import { compileLinearPattern } from '../lib/linear-pattern';
import { z } from 'zod';

// The app project on disk (`base44/`): config, entity files and seeds, as base44's CLI lays them out.
// Schemas are loose where the CLI's are (unknown keys kept), strict where the server acts on a value.

/** FIELD_NAME is a field or entity-property name: safe as a JSON key, never a prototype key. */
export const FIELD_NAME = /^(?!__proto__$)[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** ENTITY_NAME is an entity name: alphanumeric (as the CLI requires), not starting with `_`. */
export const ENTITY_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

const primitive = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const ruleOperand = z.union([
  primitive,
  z
    .object({
      $eq: primitive.optional(),
      $ne: primitive.optional(),
      $in: z.array(primitive).optional(),
      $nin: z.array(primitive).optional(),
      $all: z.array(primitive).optional(),
    })
    .strict()
    .refine((value) => Object.keys(value).length > 0, 'an operator object needs an operator'),
]);

/** RuleCondition is one condition object of the rule language (base44-dev-server.md §3.1). */
export type RuleCondition = {
  user_condition?: Record<string, z.infer<typeof ruleOperand>>;
  $or?: RuleCondition[];
  $and?: RuleCondition[];
  $nor?: RuleCondition[];
  [field: string]: unknown;
};

const ruleCondition: z.ZodType<RuleCondition> = z.lazy(() =>
  z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    for (const [key, operand] of Object.entries(value)) {
      let result: { success: boolean; error?: z.ZodError } = { success: true };
      if (key === 'user_condition') {
        result = z
          .record(z.string().regex(/^(role|email|id|full_name|data\.[A-Za-z_][A-Za-z0-9_]*)$/), ruleOperand)
          .safeParse(operand);
      } else if (key === '$or' || key === '$and' || key === '$nor') {
        result = z.array(ruleCondition).min(1).safeParse(operand);
      } else if (/^(data\.)?[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(key)) {
        result = ruleOperand.safeParse(operand);
      } else {
        ctx.addIssue({ code: 'custom', message: `unknown rule key "${key}"`, path: [key] });
        continue;
      }
      if (!result.success) {
        const detail = result.error?.issues[0];
        const where = [key, ...(detail?.path ?? []).map(String)].join('.');
        ctx.addIssue({ code: 'custom', message: `${where}: ${detail?.message ?? 'invalid'}`, path: [key] });
      }
    }
  }),
);

/** RuleSchema is a rule: open (`true`, `null`, `""`, `{}`), closed (`false`) or a condition object. */
export const RuleSchema = z.union([z.boolean(), z.null(), z.literal(''), ruleCondition]);
export type Rule = z.infer<typeof RuleSchema>;

const rlsShape = {
  create: RuleSchema.optional(),
  read: RuleSchema.optional(),
  update: RuleSchema.optional(),
  delete: RuleSchema.optional(),
  write: RuleSchema.optional(),
};

/** EntityRlsSchema is an entity's `rls` block; `write` stands in for a missing create/update/delete. */
export const EntityRlsSchema = z.object(rlsShape).strict();
export type EntityRls = z.infer<typeof EntityRlsSchema>;

const typeName = z.enum(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** PropertySchema is one JSON-Schema-style property, nested through `properties` and `items`. */
export interface PropertySchema {
  type?: z.infer<typeof typeName> | z.infer<typeof typeName>[] | undefined;
  enum?: unknown[] | undefined;
  format?: string | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  pattern?: string | undefined;
  default?: unknown;
  properties?: Record<string, PropertySchema> | undefined;
  required?: string[] | undefined;
  items?: PropertySchema | undefined;
  rls?: EntityRls | undefined;
  [extra: string]: unknown;
}

// A pattern must be valid ECMAScript (what JSON Schema means) and compile for RE2, which records are
// checked with (linear time: no lookarounds or backreferences), so no record can stall the server.
const validPattern = z
  .string()
  .max(1000, 'is longer than 1000 characters')
  .refine((source) => {
    try {
      new RegExp(source, 'u');
      return true;
    } catch {
      return false;
    }
  }, 'is not a valid regular expression')
  .refine((source) => {
    try {
      compileLinearPattern(source);
      return true;
    } catch {
      return false;
    }
  }, 'uses a feature without a linear-time match (lookarounds, backreferences): rewrite it without them');

export const PropertySchemaSchema: z.ZodType<PropertySchema> = z.lazy(() =>
  z.looseObject({
    type: z.union([typeName, z.array(typeName).min(1)]).optional(),
    enum: z.array(z.unknown()).min(1).optional(),
    format: z.string().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    minLength: z.number().int().min(0).optional(),
    maxLength: z.number().int().min(0).optional(),
    pattern: validPattern.optional(),
    default: z.unknown().optional(),
    properties: z
      .record(z.string().regex(FIELD_NAME, 'is not a valid field name'), PropertySchemaSchema)
      .optional(),
    required: z.array(z.string()).optional(),
    items: PropertySchemaSchema.optional(),
    rls: z.object(rlsShape).strict().optional(),
  }),
);

/** EntityFileSchema is one `entities/*.jsonc` file. */
export const EntityFileSchema = z.looseObject({
  name: z.string().regex(ENTITY_NAME, 'must be alphanumeric, starting with a letter'),
  type: z.literal('object').optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  properties: z.record(z.string().regex(FIELD_NAME, 'is not a valid field name'), PropertySchemaSchema),
  required: z.array(z.string()).optional(),
  rls: EntityRlsSchema.optional(),
});
export type EntityFile = z.infer<typeof EntityFileSchema>;

/** ProjectConfigSchema is `config.jsonc`. */
export const ProjectConfigSchema = z.looseObject({
  name: z.string().min(1, 'is required'),
  description: z.string().optional(),
  entitiesDir: z.string().min(1).default('entities'),
  seedDir: z.string().min(1).default('seed'),
});

/** SeedFileSchema is one `seed/<entity>.jsonc` file: records, optionally with an id and a creator email. */
export const SeedFileSchema = z.array(
  z.looseObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional(),
    created_by: z.email().optional(),
  }),
);
