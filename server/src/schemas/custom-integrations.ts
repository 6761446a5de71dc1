import { z } from 'zod';
import { SECRET_NAME } from './secrets';

// Custom integrations (`base44/integrations/<slug>.jsonc`) and the SDK's `integrations.custom.call` body.
// Project files are loose (unknown keys kept, as the project's other files); the call body is strict.

/** INTEGRATION_SLUG is a custom integration's slug: its file name without `.jsonc`. */
export const INTEGRATION_SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** HEADER_NAME is an HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** IntegrationFileSchema is one `integrations/<slug>.jsonc`: where to call, what, and how to sign in. */
export const IntegrationFileSchema = z.looseObject({
  baseUrl: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
  // Inline, or the path of a JSON document relative to this file (inside the project folder).
  openapi: z.union([
    z.looseObject({}),
    z.string().regex(/\.json$/, 'must be an inline OpenAPI 3 document or the relative path of a .json file'),
  ]),
  auth: z
    .looseObject({
      header: z.string().regex(HEADER_NAME, 'must be an HTTP header name such as Authorization'),
      secret: z.string().regex(SECRET_NAME, 'must be a secret name such as GITHUB_TOKEN'),
      // Put before the secret's value, e.g. "Bearer " or "token ".
      prefix: z
        .string()
        .max(100)
        .regex(/^[\x20-\x7e]*$/, 'must be printable ASCII')
        .optional(),
    })
    .optional(),
  timeoutMs: z.number().int().min(100).max(120_000).optional(),
});

export type IntegrationFile = z.infer<typeof IntegrationFileSchema>;

const ParameterLocation = z.enum(['path', 'query', 'header', 'cookie']);

/** OpenApiParameterObjectSchema is one declared parameter. */
export const OpenApiParameterObjectSchema = z.looseObject({
  name: z.string().min(1).max(200),
  in: ParameterLocation,
  required: z.boolean().optional(),
  schema: z
    .looseObject({
      type: z.union([z.string(), z.array(z.string())]).optional(),
      enum: z.array(z.unknown()).max(1000).optional(),
    })
    .optional(),
});

/** OpenApiParameterSchema is a parameter or a `$ref` to one in components.parameters. */
const OpenApiParameterSchema = z.union([
  z.looseObject({ $ref: z.string().max(500) }),
  OpenApiParameterObjectSchema,
]);

const OperationSchema = z.looseObject({
  operationId: z.string().min(1).max(200).optional(),
  parameters: z.array(OpenApiParameterSchema).max(200).optional(),
  requestBody: z
    .looseObject({ required: z.boolean().optional(), content: z.record(z.string(), z.unknown()).optional() })
    .optional(),
});

/** HTTP_METHODS are the operations a path item may hold. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

const PathItemSchema = z.looseObject({
  parameters: z.array(OpenApiParameterSchema).max(200).optional(),
  ...Object.fromEntries(HTTP_METHODS.map((method) => [method, OperationSchema.optional()])),
});

/** OpenApiDocumentSchema is the part of an OpenAPI 3 document the server acts on. */
export const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string().regex(/^3\.\d+/, 'must be an OpenAPI 3 version such as "3.0.3"'),
  paths: z
    .record(z.string().regex(/^\//, 'paths must start with /').max(1000), PathItemSchema)
    .refine((paths) => Object.keys(paths).length <= 2000, 'holds more than 2000 paths'),
  components: z.looseObject({ parameters: z.record(z.string(), z.unknown()).optional() }).optional(),
});

export type OpenApiDocument = z.infer<typeof OpenApiDocumentSchema>;
export type OpenApiOperation = z.infer<typeof OperationSchema>;

/** MAX_PARAMS bounds each group of call parameters; MAX_PARAM_LENGTH each value. */
export const MAX_PARAMS = 50;
export const MAX_PARAM_LENGTH = 2000;

const scalar = z.union([z.string().max(MAX_PARAM_LENGTH), z.number(), z.boolean()]);
const group = <T extends z.ZodType>(value: T) =>
  z
    .record(z.string().max(200), value)
    .refine((record) => Object.keys(record).length <= MAX_PARAMS, `holds more than ${MAX_PARAMS} names`);

/** CustomCallSchema is the body `integrations.custom.call(slug, operationId, params)` sends. */
export const CustomCallSchema = z.strictObject({
  path_params: group(scalar).optional(),
  query_params: group(z.union([scalar, z.array(scalar).max(MAX_PARAMS)])).optional(),
  headers: group(z.string().max(MAX_PARAM_LENGTH)).optional(),
  payload: z.unknown().optional(),
});

export type CustomCallInput = z.infer<typeof CustomCallSchema>;

/** CustomCallParamsSchema is the path: the slug, and the operation id (the rest of the path, any `/`). */
export const CustomCallParamsSchema = z.object({
  appId: z.string().min(1),
  slug: z.string().min(1).max(200),
  '*': z.string().min(1, 'the operation id is missing').max(1000),
});
