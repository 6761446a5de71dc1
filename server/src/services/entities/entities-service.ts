import { aggregateRecords } from './aggregate-records';
import { createEntitiesContext, type EntitiesServiceDeps } from './entities-context';
import { importRecords } from './import-records';
import { readRecords } from './read-records';
import { upsertRecords } from './upsert-records';
import { writeManyRecords } from './write-many-records';
import { writeRecords } from './write-records';

// The entity operations (base44 `entities.*`), one module per kind of action, all built on one shared
// context (entities-context.ts: project, store, events, the caller rules every action starts with):
//   read-records.ts        get, list/filter, v2 cursor page and distinct, count
//   write-records.ts       create, update, delete
//   write-many-records.ts  bulk create, bulk update, update-many, delete-many (a module each)
//   upsert-records.ts      upsert
//   import-records.ts      CSV/JSON import, seed files
//   aggregate-records.ts   aggregate
// The caller rules of a write (create rule, field write rules, merges) are in write-checks.ts; the rule
// language itself is in rules/.

export type { EntitiesServiceDeps, UserEntityWrites } from './entities-context';

/** createEntitiesService returns the entity operations with access rules, validation and events. */
export function createEntitiesService(deps: EntitiesServiceDeps) {
  const ctx = createEntitiesContext(deps);
  return {
    ...readRecords(ctx),
    ...writeRecords(ctx),
    ...writeManyRecords(ctx),
    ...upsertRecords(ctx),
    ...importRecords(ctx),
    ...aggregateRecords(ctx),
  };
}

export type EntitiesService = ReturnType<typeof createEntitiesService>;
