// The console's record changes (create, edit, delete, import), made through the entities service as the signed-in
// admin, so rules, validation and realtime are the app's own, and each written to the audit log with the
// fields before and after. The SDK's entity endpoints stay unaudited: they are the app's traffic.
import type { AuditActor, AuditLog } from '../audit/audit-log';
import type { Caller } from '../../rules/caller';
import type { EntitiesService } from '../entities/entities-service';
import type { UploadedFile } from '../entities/entity-import';
import type { EntityRecord } from '../entities/record-presenter';

/** AUDITED_RECORD_BYTES bounds the fields an audit row keeps of a record; larger ones keep field names only. */
export const AUDITED_RECORD_BYTES = 8 * 1024;
const STAMPS = new Set(['id', 'created_date', 'updated_date', 'created_by', 'created_by_id']);

/** auditedFields is record's fields named in names (all but the stamps when absent), bounded in size. */
export function auditedFields(record: EntityRecord, names?: string[]): Record<string, unknown> {
  const kept = Object.fromEntries(
    Object.entries(record).filter(([name]) => (names ? names.includes(name) : !STAMPS.has(name))),
  );
  if (Buffer.byteLength(JSON.stringify(kept)) <= AUDITED_RECORD_BYTES) return kept;
  return { fields: Object.keys(kept), values_omitted: `larger than ${AUDITED_RECORD_BYTES} bytes` };
}

/** RecordChangesDeps are the entities service and the audit log. */
export interface RecordChangesDeps {
  entities: Pick<EntitiesService, 'get' | 'create' | 'update' | 'removeMany' | 'importRecords'>;
  audit: Pick<AuditLog, 'record'>;
}

/** RecordChanges are the console's audited record writes. */
export type RecordChanges = ReturnType<typeof createRecordChanges>;

/** createRecordChanges returns the console's record writes, each audited as `record.create|update|delete`. */
export function createRecordChanges(deps: RecordChangesDeps) {
  const target = (entity: string, id: string) => `record:${entity}/${id}`;
  return {
    async create(appId: string, actor: AuditActor, caller: Caller, entity: string, body: unknown) {
      const record = await deps.entities.create(appId, entity, caller, body);
      await deps.audit.record(appId, actor, {
        action: 'record.create',
        target: target(entity, String(record.id)),
        after: auditedFields(record),
      });
      return record;
    },
    async update(
      appId: string,
      actor: AuditActor,
      caller: Caller,
      entity: string,
      id: string,
      body: Record<string, unknown>,
    ) {
      const before = await deps.entities.get(appId, entity, caller, id);
      const after = await deps.entities.update(appId, entity, caller, id, body);
      const changed = Object.keys(body).filter((name) => !STAMPS.has(name));
      await deps.audit.record(appId, actor, {
        action: 'record.update',
        target: target(entity, id),
        before: auditedFields(before, changed),
        after: auditedFields(after, changed),
      });
      return after;
    },
    /** remove deletes the records with ids the delete rule lets the caller delete; one audit row per call. */
    async remove(appId: string, actor: AuditActor, caller: Caller, entity: string, ids: string[]) {
      const { deleted } = await deps.entities.removeMany(appId, entity, caller, { id: { $in: ids } });
      await deps.audit.record(appId, actor, {
        action: 'record.delete',
        target: ids.length === 1 ? target(entity, ids[0] ?? '') : `records:${entity}`,
        before: { ids },
        after: { deleted },
      });
      return { deleted };
    },
    /** importFile imports file as the import route does (all or nothing); one audit row with the count. */
    async importFile(appId: string, actor: AuditActor, caller: Caller, entity: string, file: UploadedFile) {
      const answer = await deps.entities.importRecords(appId, entity, caller, file);
      await deps.audit.record(appId, actor, {
        action: 'record.import',
        target: `records:${entity}`,
        after: { imported: answer.output.length, file: file.filename.slice(0, 200) },
      });
      return answer;
    },
  };
}
