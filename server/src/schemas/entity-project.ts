import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { compileLinearPattern } from '../lib/linear-pattern';
import { EntityRlsSchema, type EntityRls } from '../rules/rule-schema';

// The app project on disk (`base44/`): config, entity files and seeds, as base44's CLI lays them out.
// Schemas are loose where the CLI's are (unknown keys kept), strict where the server acts on a value.

/** FIELD_NAME is a field or entity-property name: safe as a JSON key, never a prototype key. */
export const FIELD_NAME = /^(?!__proto__$)[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** ENTITY_NAME is an entity name: alphanumeric (as the CLI requires), not starting with `_`. */
export const ENTITY_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

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
    rls: EntityRlsSchema.optional(),
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

/**
 * projectFolder is a folder inside the project (`base44/`): relative, without `..` segments, so neither the
 * loader nor `entities infer` (which writes there) reaches outside it.
 */
const projectFolder = z
  .string()
  .min(1)
  .max(200)
  .refine((path) => !isAbsolute(path) && !path.split(/[\\/]/).includes('..'), {
    message: 'must be a folder inside the project (relative, without "..")',
  });

/** ProjectConfigSchema is `config.jsonc` (optional: without it the name comes from the app's folder). */
export const ProjectConfigSchema = z.looseObject({
  name: z.string().min(1, 'must not be empty').optional(),
  description: z.string().optional(),
  entitiesDir: projectFolder.default('entities'),
  seedDir: projectFolder.default('seed'),
  agentsDir: projectFolder.default('agents'),
  authDir: projectFolder.default('auth'),
  connectorsDir: projectFolder.default('connectors'),
});

/** AppIdFileSchema is `.app.jsonc`, where base44's CLI keeps the app's id (the server's APP_ID by default). */
export const AppIdFileSchema = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "_" or "-"'),
});

/** PackageNameSchema reads the `name` of the app's `package.json` (the project's name without config.jsonc). */
export const PackageNameSchema = z.looseObject({ name: z.string().min(1).max(214) });

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
