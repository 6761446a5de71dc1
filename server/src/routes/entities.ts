import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidInputError, NotFoundError } from '../lib/errors';
import { sendJson } from '../lib/json-text';
import { parseJsonInput } from '../lib/safe-input';
import { parseEnvelope, parseInput } from '../lib/validation';
import { AppParamsSchema } from '../schemas/apps';
import { UpdateMeSchema } from '../schemas/auth';
import {
  AggregateBodySchema,
  BulkCreateBodySchema,
  BulkUpdateBodySchema,
  DeleteManyBodySchema,
  EntityParamsSchema,
  ListQuerySchema,
  PageQuerySchema,
  RecordBodySchema,
  RecordParamsSchema,
  UpdateManyBodySchema,
  UpsertBodySchema,
} from '../schemas/entities';
import type { RecordChanges } from '../services/admin/record-changes';
import type { EntitiesService } from '../services/entities/entities-service';
import { RecordValidationError } from '../services/entities/entity-errors';
import { IMPORT_FILE_LIMIT } from '../services/entities/entity-import';
import type { Caller } from '../rules/caller';
import { decodeCursor } from '../services/entities/entity-cursor';
import { holdsRegex, type RegexBudget, type RegexScan } from '../services/limits/regex-budget';
import { toPublicUser } from '../services/users/public-user';
import type { UsersService } from '../services/auth/users-service';
import type { CallerGuard } from './caller-guard';
import { importActorOf } from './audit-actor';
import { readImportFile, registerImportUpload } from './import-upload';

/** BULK_BODY_LIMIT is the largest bulk-create body (5 MB); other entity writes keep the app's 1 MB limit. */
export const BULK_BODY_LIMIT = 5 * 1024 * 1024;
const MAX_ID_LENGTH = 128;

/** EntitiesRoutesDeps is what the entity routes need. */
export interface EntitiesRoutesDeps {
  guard: CallerGuard;
  entities: EntitiesService;
  users: UsersService;
  /** regexBudget is the database time queries holding `$regex` may take, per caller per minute. */
  regexBudget: RegexBudget;
  /** imports are the import's audited form, for the app's operators (the console, the service role). */
  imports: Pick<RecordChanges, 'importFile'>;
}

/** parseQuery is a list's `q`: JSON text of one object, or absent (the console's View as reads it too). */
export function parseQuery(q: string | undefined): unknown {
  if (q === undefined) return undefined;
  const value = parseJsonInput(q, "The query parameter 'q'");
  if (value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidInputError("Invalid query parameter 'q': it must be a JSON object");
  }
  return value;
}

/** cursorQueryOf is the query a v2 cursor carries (cursors are not signed), or undefined. */
function cursorQueryOf(cursor: unknown): unknown {
  if (typeof cursor !== 'string') return undefined;
  try {
    return decodeCursor(cursor).q;
  } catch {
    return undefined; // the route itself says why
  }
}

/** queryOf is `q` parsed, or undefined when absent or malformed (the route itself then says why). */
function queryOf(q: unknown): unknown {
  if (typeof q !== 'string') return undefined;
  try {
    return parseQuery(q);
  } catch {
    return undefined;
  }
}

// A record body that is not an object is refused like a record that breaks its entity (422).
const recordRefused = (message: string) => new RecordValidationError(message);

/**
 * registerEntitiesRoutes adds `/api/apps/:appId/entities/*`: the caller's own `User/me`, and every entity's
 * list, get, writes, batch writes, aggregate and import under `entities/:entity`. Each body's envelope is
 * validated here; its records' fields by the service.
 */
export function registerEntitiesRoutes(app: FastifyInstance, deps: EntitiesRoutesDeps): void {
  const me = async (request: FastifyRequest) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    // The caller's own record stays reachable on a private app: the site asks it to tell "sign in" from
    // "not registered".
    return deps.guard.user(request, appId);
  };

  app.get('/api/apps/:appId/entities/User/me', async (request) => toPublicUser(await me(request)));

  app.put('/api/apps/:appId/entities/User/me', async (request) => {
    const user = await me(request);
    return deps.users.updateMe(user, parseInput(UpdateMeSchema, request.body));
  });

  // Every entity route asks the caller guard: app, tokens and the app's visibility, resolved once.
  // A request whose query holds `$regex` (in `q` or a body) is admitted against the caller's regex scan
  // budget, and charged its duration when its answer is ready (the onSend hook below: it runs for errors
  // too, and after the work is done even when the client went away, so a turn is never given up early).
  // A turn ends once: at onSend, or when the connection closes first (a body deadline answers on the raw
  // socket, and an import's unfinished body never reaches onSend). An early close lets the caller's next
  // scan start while this one may still run, for at most ENTITY_REGEX_DEADLINE_MS.
  const regexScans = new WeakMap<FastifyRequest, RegexScan>();
  const connectionClosed = (request: FastifyRequest) => request.raw.socket?.destroyed === true;
  const finishScan = (request: FastifyRequest) => {
    const scan = regexScans.get(request);
    if (!scan) return;
    regexScans.delete(request);
    deps.regexBudget.finish(scan).catch(() => undefined);
  };
  const callerOf = async (request: FastifyRequest, appId: string): Promise<Caller> => {
    const caller = await deps.guard.dataCaller(request, appId);
    const { q, cursor } = (request.query ?? {}) as { q?: unknown; cursor?: unknown };
    const regex =
      holdsRegex(queryOf(q)) ||
      holdsRegex(cursorQueryOf(cursor)) ||
      (request.method !== 'GET' && holdsRegex(request.body));
    if (regex && !regexScans.has(request)) {
      const scan = await deps.regexBudget.admit(appId, caller, request.ip);
      if (scan) {
        regexScans.set(request, scan);
        // Closed while it waited for its turn: the 'close' above has passed, so the turn ends now.
        if (connectionClosed(request)) finishScan(request);
      }
    }
    return caller;
  };
  app.addHook('onSend', async (request, _reply, payload) => {
    finishScan(request);
    return payload;
  });
  // 'close' on the response: it ended, or its connection did (one listener per response, gone with it).
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.once('close', () => finishScan(request));
  });

  function recordParams(request: FastifyRequest) {
    const params = parseInput(RecordParamsSchema, request.params);
    if (params.id.length > MAX_ID_LENGTH) {
      throw new NotFoundError(`Entity ${params.entity} with ID ${params.id.slice(0, 16)}… not found`);
    }
    return params;
  }

  const base = '/api/apps/:appId/entities/:entity';
  app.register(async (scope) => {
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
      const caller = await callerOf(request, appId);
      const body = parseEnvelope(RecordBodySchema, request.body, recordRefused);
      const record = await deps.entities.create(appId, entity, caller, body);
      return reply.code(201).send(record);
    });

    scope.post(`${base}/bulk`, { bodyLimit: BULK_BODY_LIMIT }, async (request, reply) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const caller = await callerOf(request, appId);
      const bodies = parseEnvelope(BulkCreateBodySchema, request.body);
      const records = await deps.entities.bulkCreate(appId, entity, caller, bodies);
      return reply.code(201).send(records);
    });

    scope.patch(`${base}/update-many`, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const caller = await callerOf(request, appId);
      return deps.entities.updateMany(
        appId,
        entity,
        caller,
        parseEnvelope(UpdateManyBodySchema, request.body),
      );
    });

    scope.put(`${base}/bulk`, { bodyLimit: BULK_BODY_LIMIT }, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const caller = await callerOf(request, appId);
      return deps.entities.bulkUpdate(
        appId,
        entity,
        caller,
        parseEnvelope(BulkUpdateBodySchema, request.body),
      );
    });

    scope.post(`${base}/upsert`, { bodyLimit: BULK_BODY_LIMIT }, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const caller = await callerOf(request, appId);
      return deps.entities.upsert(appId, entity, caller, parseEnvelope(UpsertBodySchema, request.body));
    });

    scope.post(`${base}/aggregate`, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const caller = await callerOf(request, appId);
      return deps.entities.aggregate(appId, entity, caller, parseEnvelope(AggregateBodySchema, request.body));
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
        // An operator's import (an admin, the console's; the service role by SERVICE_TOKEN) is audited.
        const actor = await importActorOf(deps.guard, request, appId);
        const answer = actor
          ? await deps.imports.importFile(appId, actor, caller, entity, file)
          : await deps.entities.importRecords(appId, entity, caller, file);
        return reply.code(201).send(answer);
      });
    });

    scope.put(`${base}/:id`, async (request) => {
      const { appId, entity, id } = recordParams(request);
      const caller = await callerOf(request, appId);
      const body = parseEnvelope(RecordBodySchema, request.body, recordRefused);
      return deps.entities.update(appId, entity, caller, id, body);
    });

    scope.delete(`${base}/:id`, async (request) => {
      const { appId, entity, id } = recordParams(request);
      return deps.entities.remove(appId, entity, await callerOf(request, appId), id);
    });

    scope.delete(base, async (request) => {
      const { appId, entity } = parseInput(EntityParamsSchema, request.params);
      const caller = await callerOf(request, appId);
      return deps.entities.removeMany(
        appId,
        entity,
        caller,
        parseEnvelope(DeleteManyBodySchema, request.body),
      );
    });
  });
}
