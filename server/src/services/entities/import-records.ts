import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ForbiddenError, InvalidInputError } from '../../lib/errors';
import { randomId } from '../../lib/secure-random';
import type { Caller } from '../../rules/caller';
import type { NewEntityRecord } from '../../store/entity-records-store';
import type { EntitiesContext } from './entities-context';
import { ImportRefusedError } from './entity-errors';
import {
  fieldOf,
  MAX_IMPORT_ERRORS,
  parseImportFile,
  ROWS_PER_TURN,
  type ImportProblem,
  type UploadedFile,
} from './entity-import';
import { checkNewRecord, createRuleOf } from './write-checks';
import { prepareRecord } from '../../project/record-validator';

// Loading many records from files: a user's CSV/JSON import (all or nothing, with a per-row report) and
// the project's seed files (each once per app). The file formats are parsed in entity-import.ts.

/** IMPORT_ECHO_MAX is the most records an import answers in full; larger imports answer their ids. */
export const IMPORT_ECHO_MAX = 1000;

/** importRecords returns the import and seed actions of the entities service. */
export function importRecords(ctx: EntitiesContext) {
  const { deps, store, requireEntity, refuseUserCreate, presenter, emitAll } = ctx;

  /** importRight is the entity an import writes to and the caller's create rule (403 without one). */
  function importRight(name: string, caller: Caller) {
    const entity = requireEntity(name);
    refuseUserCreate(entity, caller);
    const rule = createRuleOf(entity, caller);
    if (rule === false) throw new ForbiddenError('Permission denied: you may not create records');
    return { entity, rule };
  }

  return {
    /**
     * checkImport resolves the entity and the caller's create right, so the route can refuse (404/403)
     * before it reads an uploaded file.
     */
    checkImport(name: string, caller: Caller): void {
      importRight(name, caller);
    },

    /**
     * importRecords creates one record per row of a CSV or JSON file, all or nothing: every row is
     * validated against the schema, the create rule and the field write rules first; any problem refuses
     * the whole import with a per-row report (ImportRefusedError, nothing written). Then one transaction
     * inserts them all and one create event per record follows the commit.
     */
    async importRecords(appId: string, name: string, caller: Caller, file: UploadedFile) {
      const { entity, rule } = importRight(name, caller);
      const { records, problems } = await parseImportFile(entity, file);
      const prepared: NewEntityRecord[] = [];
      const add = (problem: ImportProblem) => problems.push(problem);
      for (const [index, record] of records.entries()) {
        // Validation of a large file takes seconds: other requests get turns meanwhile.
        if (index % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToEventLoop();
        const row = index + 1;
        const checked = checkNewRecord(entity, caller, record, rule);
        if (checked.ok) prepared.push(checked.record);
        else if (checked.problem === 'invalid') add({ row, ...fieldOf(checked.message) });
        else if (checked.problem === 'rule') {
          add({ row, field: null, message: 'Permission denied by the create rule' });
        } else {
          for (const path of checked.denied) {
            add({ row, field: path.replace(/^data\./, ''), message: "You're not allowed to set this field" });
          }
        }
      }
      if (problems.length) {
        problems.sort((a, b) => a.row - b.row);
        throw new ImportRefusedError(problems.slice(0, MAX_IMPORT_ERRORS), problems.length);
      }
      const rows = prepared.length ? await store.importMany(appId, entity.name, prepared) : [];
      emitAll(appId, entity, 'create', rows);
      // A large import is answered with each record's id, not the records themselves: echoing 100,000
      // records would hold the event loop and the connection for every one of them again.
      const output =
        rows.length <= IMPORT_ECHO_MAX
          ? rows.map(presenter(entity, caller))
          : rows.map((row) => ({ id: row.id }));
      return {
        status: 'success' as const,
        details: `Imported ${rows.length} ${rows.length === 1 ? 'record' : 'records'}`,
        output,
      };
    },

    /** seed loads each seed file the first time its entity is seeded for appId and returns the counts. */
    async seed(appId: string): Promise<Record<string, number>> {
      const counts: Record<string, number> = {};
      for (const set of deps.project.seeds) {
        const entity = requireEntity(set.entity);
        const records = set.records.map((record) => {
          const prepared = prepareRecord(entity, record, 'create');
          if (!prepared.ok) throw new InvalidInputError(`${set.file}: ${prepared.message}`);
          const email = typeof record.created_by === 'string' ? record.created_by : null;
          const id = typeof record.id === 'string' ? record.id : randomId();
          return { id, data: prepared.data, created_by: email, created_by_id: null };
        });
        counts[entity.name] = await store.seedOnce(appId, entity.name, records);
      }
      return counts;
    },
  };
}
