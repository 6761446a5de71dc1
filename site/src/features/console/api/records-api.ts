import type { Base44Client } from '@base44/sdk';
import { z } from 'zod';
import { sdkCall } from './console-client';
import { ConsoleApiError } from './console-error';

// The Data page's record calls, with the admin's token: reads with the official SDK (pages of a query,
// v2 cursor pages, one record); writes through the admin record routes, which audit each change (the same
// rules, validation, limits and error shapes; the SDK's own writes would go unaudited); imports through
// the SDK's import route, which audits an admin's. Answers are parsed here.

/** StoredRecord is one record as the entity endpoints answer it. */
export type StoredRecord = Record<string, unknown>;

/**
 * RecordWriteError is a failed record call with the server's status and whole answer, so a form can show
 * its field errors (status 0: no answer).
 */
export class RecordWriteError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'RecordWriteError';
  }
}

const RecordSchema = z.record(z.string(), z.unknown());
const PageSchema = z.object({
  items: z.array(RecordSchema),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});
export type RecordsPage = z.infer<typeof PageSchema>;

/** ImportProblem is one line of an import's per-row report (row 0 is the CSV header). */
export const ImportProblemSchema = z.object({
  row: z.number(),
  field: z.string().nullable(),
  message: z.string(),
});
export type ImportProblem = z.infer<typeof ImportProblemSchema>;
const ImportRefusedSchema = z.object({
  message: z.string(),
  errors: z.array(ImportProblemSchema),
  error_count: z.number(),
});
const ImportDoneSchema = z.object({ status: z.literal('success'), output: z.array(z.unknown()) });

/** ImportOutcome is an import's answer: how many records it stored, or why it stored none. */
export type ImportOutcome =
  { ok: true; imported: number } | { ok: false; message: string; problems: ImportProblem[]; count: number };

/** PageQuery is one v2 list page: a filter in the SDK's query language, a sort, a page size, a cursor. */
export interface PageQuery {
  filter: Record<string, unknown> | null;
  sort?: string;
  limit?: number;
  cursor?: string | null;
}

/** RecordsRead is one numbered page of a query: `filter(query, sort, limit, skip)` in the SDK. */
export interface RecordsRead {
  query: Record<string, unknown>;
  sort: string;
  limit: number;
  skip: number;
}

/** RecordsApi is what the Data page asks of the entity endpoints. */
export interface RecordsApi {
  read(entity: string, request: RecordsRead): Promise<StoredRecord[]>;
  get(entity: string, id: string): Promise<StoredRecord>;
  page(entity: string, query: PageQuery): Promise<RecordsPage>;
  create(entity: string, data: StoredRecord): Promise<StoredRecord>;
  update(entity: string, id: string, data: StoredRecord): Promise<StoredRecord>;
  remove(entity: string, id: string): Promise<void>;
  /** removeMany deletes the records with ids in one request and answers how many were deleted. */
  removeMany(entity: string, ids: string[]): Promise<number>;
  /** importFile sends a CSV or JSON file to the import route, reporting upload progress (0 to 1). */
  importFile(entity: string, file: File, onProgress: (share: number) => void): Promise<ImportOutcome>;
}

const messageIn = (body: unknown, status: number) => {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : `The server answered ${status}`;
};

/**
 * createRecordsApi calls appId's entity endpoints with token (the console's admin session): reads through
 * sdk (the SDK speaking with that token), writes with fetch.
 */
export function createRecordsApi(appId: string, token: string | null, sdk: () => Base44Client): RecordsApi {
  const app = `/api/apps/${encodeURIComponent(appId)}`;
  const entities = (entity: string) => {
    // The SDK's `entities` answers any name (a proxy); the check only satisfies the index type.
    const handler = sdk().entities[entity];
    if (!handler) throw new ConsoleApiError(`No entity named ${entity}`, 404);
    return handler;
  };
  const auditedPath = (entity: string) => `${app}/admin/entities/${encodeURIComponent(entity)}/records`;
  async function call<T>(url: string, schema: z.ZodType<T>, init: RequestInit = {}): Promise<T> {
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (init.body) headers.set('content-type', 'application/json');
    const response = await fetch(url, { ...init, headers });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) throw new RecordWriteError(messageIn(body, response.status), response.status, body);
    return schema.parse(body);
  }
  const send = (method: string, data: unknown): RequestInit => ({ method, body: JSON.stringify(data) });

  return {
    async read(entity, { query, sort, limit, skip }) {
      const rows: unknown = await sdkCall(() => entities(entity).filter(query, sort, limit, skip));
      return z.array(RecordSchema).parse(rows);
    },
    get: async (entity, id) => RecordSchema.parse(await sdkCall(() => entities(entity).get(id))),
    async page(entity, { filter, sort = 'created_date', limit = 100, cursor }) {
      const options = { sort, limit, ...(cursor ? { cursor } : {}) };
      return PageSchema.parse(await sdkCall(() => entities(entity).filter(filter ?? {}, options)));
    },
    create: (entity, data) => call(auditedPath(entity), RecordSchema, send('POST', data)),
    update: (entity, id, data) =>
      call(`${auditedPath(entity)}/${encodeURIComponent(id)}`, RecordSchema, send('PUT', data)),
    async remove(entity, id) {
      await call(auditedPath(entity), z.unknown(), send('DELETE', { ids: [id] }));
    },
    async removeMany(entity, ids) {
      const answer = await call(
        auditedPath(entity),
        z.object({ deleted: z.number() }),
        send('DELETE', { ids }),
      );
      return answer.deleted;
    },
    // The SDK's import route (`importEntities`), which audits an admin's import; sent with XMLHttpRequest
    // for its upload progress, which the SDK does not report.
    importFile: (entity, file, onProgress) =>
      uploadImport(`${app}/entities/${encodeURIComponent(entity)}/import`, token, file, onProgress),
  };
}

/** uploadImport posts file as the part `file` with XMLHttpRequest, whose upload reports progress. */
function uploadImport(
  url: string,
  token: string | null,
  file: File,
  onProgress: (share: number) => void,
): Promise<ImportOutcome> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new RecordWriteError('The upload failed: the server did not answer', 0));
    request.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText) as unknown;
      } catch {
        // Not JSON: the status says what happened.
      }
      const done = ImportDoneSchema.safeParse(body);
      if (request.status < 300 && done.success)
        return resolve({ ok: true, imported: done.data.output.length });
      const refused = ImportRefusedSchema.safeParse(body);
      if (request.status === 422 && refused.success) {
        const { message, errors, error_count } = refused.data;
        return resolve({ ok: false, message, problems: errors, count: error_count });
      }
      reject(new RecordWriteError(messageIn(body, request.status), request.status, body));
    };
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}
