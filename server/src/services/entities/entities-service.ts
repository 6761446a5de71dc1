import type {
  BulkCreateBody,
  BulkUpdateBody,
  DeleteManyBody,
  UpdateManyBody,
  UpsertBody,
} from '../../schemas/entities';
import type { Caller } from '../../rules/caller';
import { aggregateRecords } from './aggregate-records';
import { createEntitiesContext, type EntitiesServiceDeps } from './entities-context';
import type { UploadedFile } from './entity-import';
import { importRecords } from './import-records';
import { readRecords, type ListOptions, type PageOptions } from './read-records';
import type { EntityRecord } from './record-presenter';
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

/** EntityPage is one v2 cursor page: records (or distinct values) and where the walk goes on. */
export interface EntityPage {
  items: unknown[];
  next_cursor: string | null;
  has_more: boolean;
}

/** AggregateAnswer is an aggregate's rows keyed by the spec's names, and whether more rows existed. */
export interface AggregateAnswer {
  rows: Record<string, unknown>[];
  truncated: boolean;
}

/** ImportAnswer is a finished import: the records created, or only their ids past IMPORT_ECHO_MAX. */
export interface ImportAnswer {
  status: 'success';
  details: string;
  output: EntityRecord[] | { id: string }[];
}

/** UpsertAnswer counts the records an upsert created and updated, and returns them. */
export interface UpsertAnswer {
  created: number;
  updated: number;
  records: EntityRecord[];
}

/** EntitiesService is the entity operations (base44 `entities.*`): access rules, validation, events. */
export interface EntitiesService {
  /** list returns one page of the records the caller may read, filtered, sorted and projected. */
  list(appId: string, name: string, caller: Caller, options: ListOptions): Promise<EntityRecord[]>;
  /** listPage returns one cursor page (keyset on one sort field + id), or with `distinct` distinct values. */
  listPage(appId: string, name: string, caller: Caller, options: PageOptions): Promise<EntityPage>;
  /** count returns how many records matching query the caller may read. */
  count(appId: string, name: string, caller: Caller, query?: unknown): Promise<number>;
  /** get returns one record; a record the caller may not read is reported as not found. */
  get(appId: string, name: string, caller: Caller, id: string): Promise<EntityRecord>;
  /** create validates, checks the create rules, stores and announces one record. */
  create(appId: string, name: string, caller: Caller, body: unknown): Promise<EntityRecord>;
  /** update merges body into a record the caller may update (else not found) and announces it. */
  update(appId: string, name: string, caller: Caller, id: string, body: unknown): Promise<EntityRecord>;
  /** remove deletes a record the caller may delete (else not found) and announces it. */
  remove(appId: string, name: string, caller: Caller, id: string): Promise<{ success: true }>;
  /** bulkCreate checks every record first, then stores them all in one statement. */
  bulkCreate(appId: string, name: string, caller: Caller, bodies: BulkCreateBody): Promise<EntityRecord[]>;
  /** removeMany deletes every record matching query that the delete rule lets the caller delete. */
  removeMany(
    appId: string,
    name: string,
    caller: Caller,
    query: DeleteManyBody,
  ): Promise<{ success: true; deleted: number }>;
  /** updateMany applies Mongo update operators to up to MAX_BATCH_WRITE matching records the rule admits. */
  updateMany(
    appId: string,
    name: string,
    caller: Caller,
    body: UpdateManyBody,
  ): Promise<{ success: true; updated: number; has_more: boolean }>;
  /** bulkUpdate merges each `{id, ...fields}` into its record, all or nothing. */
  bulkUpdate(appId: string, name: string, caller: Caller, body: BulkUpdateBody): Promise<EntityRecord[]>;
  /** upsert creates or updates records by the value of their top-level key field(s), all or nothing. */
  upsert(appId: string, name: string, caller: Caller, body: UpsertBody): Promise<UpsertAnswer>;
  /** checkImport resolves the entity and the caller's create right (404/403 before a file is read). */
  checkImport(name: string, caller: Caller): void;
  /** importRecords creates one record per row of a CSV or JSON file, all or nothing. */
  importRecords(appId: string, name: string, caller: Caller, file: UploadedFile): Promise<ImportAnswer>;
  /** seed loads each seed file the first time its entity is seeded for appId and returns the counts. */
  seed(appId: string): Promise<Record<string, number>>;
  /** aggregate groups the records matching spec.query that the caller may read into `{rows, truncated}`. */
  aggregate(appId: string, name: string, caller: Caller, spec: unknown): Promise<AggregateAnswer>;
}

/** createEntitiesService returns the entity operations with access rules, validation and events. */
export function createEntitiesService(deps: EntitiesServiceDeps): EntitiesService {
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
