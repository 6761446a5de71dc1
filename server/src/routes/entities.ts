import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError, NotFoundError } from '../lib/errors';
import { sendJson } from '../lib/json-memo';
import { parseJsonInput } from '../lib/safe-input';
import { parseInput } from '../lib/validation';
import {
  EntityParamsSchema,
  ListQuerySchema,
  PageQuerySchema,
  RecordParamsSchema,
} from '../schemas/entities';
import type { EntitiesService } from '../services/entities/entities-service';
import { ImportRefusedError, RecordValidationError } from '../services/entities/entity-errors';
import { IMPORT_FILE_LIMIT } from '../services/entities/entity-import';
import type { Caller } from '../rules/caller';
import type { CallerGuard } from './caller-guard';
import { readImportFile, registerImportUpload } from './import-upload';

/** BULK_BODY_LIMIT is the largest bulk-create body (5 MB); other entity writes keep the app's 1 MB limit. */
export const BULK_BODY_LIMIT = 5 * 1024 * 1024;
const MAX_ID_LENGTH = 128;

/** EntitiesRoutesDeps is what the entity routes need. */
export interface EntitiesRoutesDeps {
  guard: CallerGuard;
  entities: EntitiesService;
}

function parseQuery(q: string | undefined): unknown {
  if (q === undefined) return undefined;
  const value = parseJsonInput(q, "The query parameter 'q'");
  if (value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidInputError("Invalid query parameter 'q': it must be a JSON object");
  }
  return value;
}

function handleEntityError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof RecordValidationError) {
    // The envelope production answers with; the SDK reads `message`.
    return reply.code(422).send({
      error_type: 'ValidationError',
      message: error.message,
      detail: error.message,
      request_id: null,
      traceback: '',
    });
  }
  if (error instanceof ImportRefusedError) {
    // The SDK's ImportResult shape plus the report; as an error status the SDK throws with it in `data`.
    return reply.code(422).send({
      status: 'error',
      message: error.message,
      detail: error.message,
      details: error.message,
      output: null,
      errors: error.problems,
      error_count: error.count,
    });
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const limit = reply.request.routeOptions.bodyLimit ?? 0;
    return reply
      .code(413)
      .send({ message: `The request body is larger than the ${limit / 1024 / 1024} MB limit` });
  }
  // Everything else goes to the app's error handler.
  throw error;
}

/** registerEntitiesRoutes adds the entity CRUD routes under `/api/apps/:appId/entities/:entity`. */
export function registerEntitiesRoutes(app: FastifyInstance, deps: EntitiesRoutesDeps): void {
  // Every entity route asks the caller guard: app, tokens and the app's visibility, resolved once.
  const callerOf = (request: FastifyRequest, appId: string): Promise<Caller> =>
    deps.guard.dataCaller(request, appId);

  function recordParams(request: FastifyRequest) {
    const params = parseInput(RecordParamsSchema, request.params);
    if (params.id.length > MAX_ID_LENGTH) {
      throw new NotFoundError(`Entity ${params.entity} with ID ${params.id.slice(0, 16)}… not found`);
    }
    return params;
  }

  const base = '/api/apps/:appId/entities/:entity';
  app.register(async (scope) => {
    scope.setErrorHandler(handleEntityError);

    scope.get(base, async (request, reply) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const caller = await callerOf(request, appId);
      const { q, ...page } = parseInput(ListQuerySchema, request.query);
      return sendJson(
        reply,
        await deps.entities.list(appId, entity, caller, { query: parseQuery(q), ...page }),
      );
    });

    scope.get(`${base}/v2/list`, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const caller = await callerOf(request, appId);
      const { q, ...page } = parseInput(PageQuerySchema, request.query);
      return deps.entities.listPage(appId, entity, caller, { query: parseQuery(q), ...page });
    });

    scope.get(`${base}/count`, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const caller = await callerOf(request, appId);
      const { q } = parseInput(ListQuerySchema, request.query);
      return { count: await deps.entities.count(appId, entity, caller, parseQuery(q)) };
    });

    scope.get(`${base}/:id`, async (request, reply) => {
      const { appId, entity, id } = recordParams(request);
      return sendJson(reply, await deps.entities.get(appId, entity, await callerOf(request, appId), id));
    });

    scope.post(base, async (request, reply) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const record = await deps.entities.create(appId, entity, await callerOf(request, appId), request.body);
      return reply.code(201).send(record);
    });

    scope.post(`${base}/bulk`, { bodyLimit: BULK_BODY_LIMIT }, async (request, reply) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const records = await deps.entities.bulkCreate(
        appId,
        entity,
        await callerOf(request, appId),
        request.body,
      );
      return reply.code(201).send(records);
    });

    scope.patch(`${base}/update-many`, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      return deps.entities.updateMany(appId, entity, await callerOf(request, appId), request.body);
    });

    scope.put(`${base}/bulk`, { bodyLimit: BULK_BODY_LIMIT }, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      return deps.entities.bulkUpdate(appId, entity, await callerOf(request, appId), request.body);
    });

    scope.post(`${base}/upsert`, { bodyLimit: BULK_BODY_LIMIT }, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      return deps.entities.upsert(appId, entity, await callerOf(request, appId), request.body);
    });

    scope.post(`${base}/aggregate`, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      return deps.entities.aggregate(appId, entity, await callerOf(request, appId), request.body);
    });

    // Import takes multipart/form-data (the SDK's one part `file`), streamed only once the entity and the
    // caller's create right are known.
    scope.register(async (imports) => {
      await registerImportUpload(imports);
      imports.post(`${base}/import`, { bodyLimit: IMPORT_FILE_LIMIT }, async (request, reply) => {
        const { appId, entity } = parseInput(EntityParamsSchema, request.params);
        const caller = await callerOf(request, appId);
        deps.entities.checkImport(entity, caller);
        const file = await readImportFile(request, caller.kind === 'anonymous');
        return reply.code(201).send(await deps.entities.importRecords(appId, entity, caller, file));
      });
    });

    scope.put(`${base}/:id`, async (request) => {
      const { appId, entity, id } = recordParams(request);
      return deps.entities.update(appId, entity, await callerOf(request, appId), id, request.body);
    });

    scope.delete(`${base}/:id`, async (request) => {
      const { appId, entity, id } = recordParams(request);
      return deps.entities.remove(appId, entity, await callerOf(request, appId), id);
    });

    scope.delete(base, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      return deps.entities.removeMany(appId, entity, await callerOf(request, appId), request.body);
    });
  });
}
