import { z } from 'zod';

// The rule language as written in an entity file (docs/entities-and-rules.md, "The rule language"): its
// types and its parser. resolve-rule.ts decides a rule for one caller; evaluate-rule.ts and read-scope.ts
// evaluate the result.

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

/** RuleCondition is one condition object of the rule language (docs/entities-and-rules.md). */
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

/** EntityRlsSchema is an entity's (or a field's) `rls` block; `write` stands in for a missing create/update/delete. */
export const EntityRlsSchema = z
  .object({
    create: RuleSchema.optional(),
    read: RuleSchema.optional(),
    update: RuleSchema.optional(),
    delete: RuleSchema.optional(),
    write: RuleSchema.optional(),
  })
  .strict();
export type EntityRls = z.infer<typeof EntityRlsSchema>;
