// The console's record writes under `/api/apps/:appId/admin/entities/:entity/records`: the entities
// service's own create, update and delete as the signed-in admin (rules, validation and realtime unchanged,
// errors shaped as the entity routes' are), each written to the audit log. Admins or SERVICE_TOKEN only.
// (Imports go through the entity import route, which audits an operator's.)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseEnvelope, parseInput } from '../lib/validation';
import { AdminRecordParamsSchema, DeleteRecordsSchema } from '../schemas/admin-records';
import { EntityParamsSchema, RecordBodySchema } from '../schemas/entities';
import type { RecordChanges } from '../services/admin/record-changes';
import { RecordValidationError } from '../services/entities/entity-errors';
import { operatorActorOf } from './audit-actor';
import type { CallerGuard } from './caller-guard';

/** AdminRecordRoutesDeps are the caller guard and the audited record changes. */
export interface AdminRecordRoutesDeps {
  guard: CallerGuard;
  records: RecordChanges;
}

const recordRefused = (message: string) => new RecordValidationError(message);

/** registerAdminRecordRoutes adds the console's audited record writes. */
export function registerAdminRecordRoutes(app: FastifyInstance, deps: AdminRecordRoutesDeps): void {
  // The operator check first (admins or the service role), then the caller the entities service sees.
  async function operatorOf(request: FastifyRequest, appId: string) {
    const { actor } = await operatorActorOf(deps.guard, request, appId);
    return { actor, caller: await deps.guard.dataCaller(request, appId) };
  }
  const base = '/api/apps/:appId/admin/entities/:entity/records';

  app.post(base, async (request, reply) => {
    const { appId, entity } = parseInput(EntityParamsSchema, request.params);
    const { actor, caller } = await operatorOf(request, appId);
    const body = parseEnvelope(RecordBodySchema, request.body, recordRefused);
    return reply.code(201).send(await deps.records.create(appId, actor, caller, entity, body));
  });

  app.put(`${base}/:id`, async (request) => {
    const { appId, entity, id } = parseInput(AdminRecordParamsSchema, request.params);
    const { actor, caller } = await operatorOf(request, appId);
    const body = parseEnvelope(RecordBodySchema, request.body, recordRefused);
    return deps.records.update(appId, actor, caller, entity, id, body);
  });

  // A DELETE with a body: the selection's ids (one for the editor's Delete).
  app.delete(base, async (request) => {
    const { appId, entity } = parseInput(EntityParamsSchema, request.params);
    const { actor, caller } = await operatorOf(request, appId);
    const { ids } = parseInput(DeleteRecordsSchema, request.body);
    return deps.records.remove(appId, actor, caller, entity, ids);
  });
}
