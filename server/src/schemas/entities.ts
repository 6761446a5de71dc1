import { z } from 'zod';

/** MAX_LIST_LIMIT is the largest list `limit` honoured (the SDK's documented maximum). */
export const MAX_LIST_LIMIT = 5000;

const whole = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number ≥ 0`)
    .transform(Number)
    .optional();

/** EntityParamsSchema is `/api/apps/:appId/entities/:entity`; names are checked by the service (404). */
export const EntityParamsSchema = z.object({ appId: z.string().min(1), entity: z.string().min(1).max(128) });

/** RecordParamsSchema adds the record id. */
export const RecordParamsSchema = EntityParamsSchema.extend({ id: z.string().min(1) });

/** ListQuerySchema is the query string of a list, filter or count: `q` is JSON, `fields` a comma list. */
export const ListQuerySchema = z.object({
  q: z.string().optional(),
  sort: z.string().max(512).optional(),
  limit: whole('limit'),
  skip: whole('skip'),
  fields: z
    .string()
    .max(4096)
    .transform((value) =>
      value
        .split(',')
        .map((field) => field.trim())
        .filter(Boolean),
    )
    .optional(),
});

/** PageQuerySchema is the query string of a v2 list: a list query plus `cursor` and `distinct`. */
export const PageQuerySchema = ListQuerySchema.omit({ skip: true }).extend({
  cursor: z.string().max(16_384).optional(),
  distinct: z.string().min(1).max(512).optional(),
});

// Entity bodies: the route checks each body's envelope (object or array, and the parts that must be
// objects); each record's fields are the entity's to check (the service's record validator), and the
// service takes each body as its schema's type (z.infer), so it never checks the envelope again. Values pass
// through by reference (z.custom), so a record is never copied and keys such as "__proto__" stay data.
// The messages are whole sentences: parseEnvelope answers with the first.

type JsonObject = Record<string, unknown>;

const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const jsonObject = (message: string) => z.custom<JsonObject>(isJsonObject, { error: message });
const jsonArray = (message: string) => z.custom<unknown[]>(Array.isArray, { error: message });

/** RecordBodySchema is one record to create or merge (the entity's fields are checked by the service). */
export const RecordBodySchema = jsonObject('The record must be a JSON object');

/** BulkCreateBodySchema is `POST …/bulk`: an array of records. */
export const BulkCreateBodySchema = jsonArray('Request body must be an array');
export type BulkCreateBody = z.infer<typeof BulkCreateBodySchema>;

/** BulkUpdateBodySchema is `PUT …/bulk`: an array of `{id, ...fields}`. */
export const BulkUpdateBodySchema = jsonArray('Request body must be an array of {id, ...fields}');
export type BulkUpdateBody = z.infer<typeof BulkUpdateBodySchema>;

/** UpdateManyBodySchema is `PATCH …/update-many`: `{query, data}` (data's operators are the service's). */
export const UpdateManyBodySchema = z.object(
  {
    query: jsonObject('updateMany needs "query" to be an object'),
    data: z.unknown(),
  },
  { error: 'updateMany needs a body {"query": {...}, "data": {...}}' },
);
export type UpdateManyBody = z.infer<typeof UpdateManyBodySchema>;

/** UpsertBodySchema is `POST …/upsert`: `{key, records}`; key fields are checked against the entity. */
export const UpsertBodySchema = z.object(
  {
    // key first: a bad key is named before bad records (the service then checks its fields).
    key: z.union([z.string(), z.array(z.string())], {
      error: 'upsert needs "key": a field of the entity, or an array of up to 4 fields',
    }),
    records: jsonArray('upsert needs "records" to be an array'),
  },
  { error: 'upsert needs a body {"records": [...], "key": "field"}' },
);
export type UpsertBody = z.infer<typeof UpsertBodySchema>;

/** DeleteManyBodySchema is `DELETE …/:entity`: the query selecting what to delete. */
export const DeleteManyBodySchema = jsonObject('deleteMany needs a query object as the request body');
export type DeleteManyBody = z.infer<typeof DeleteManyBodySchema>;

/** AggregateBodySchema is `POST …/aggregate`: the spec object (its keys are checked by the service). */
export const AggregateBodySchema = jsonObject(
  'Invalid aggregate spec: the request body must be a JSON object',
);
