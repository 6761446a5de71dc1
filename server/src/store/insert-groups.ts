import { failsEveryone, groupStatements } from './statement-groups';

// Group commit for single-record creates. Each autocommitted INSERT pays for its own commit (about three
// quarters of a create's engine time on PGlite; a WAL flush on PostgreSQL). Creates of one entity that
// arrive while earlier ones are being written wait and are then written together, as one statement in one
// commit. A bad value fails only its own create: the group is then written record by record.

/** InsertRecords writes records of one entity in one statement and returns the stored rows. */
export type InsertRecords<R, Row> = (appId: string, entity: string, records: R[]) => Promise<Row[]>;

/** InsertGroupOptions bounds a group: statements in flight at once, and records in one statement. */
export interface InsertGroupOptions {
  maxInFlight: number;
  maxRecords: number;
}

/**
 * groupInserts returns insertOne(appId, entity, record) → the rows stored for record (none when its id
 * already existed), writing records that wait for the same entity together.
 */
export function groupInserts<R extends { id: string }, Row extends { id: string }>(
  insert: InsertRecords<R, Row>,
  options: InsertGroupOptions,
) {
  const call = groupStatements<{ appId: string; entity: string; record: R }, Row[]>(
    async (items) => {
      const [first] = items;
      if (!first) return [];
      const rows = await insert(
        first.appId,
        first.entity,
        items.map((item) => item.record),
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return items.map((item) => {
        const row = byId.get(item.record.id);
        return row ? [row] : [];
      });
    },
    {
      maxInFlight: options.maxInFlight,
      maxItems: options.maxRecords,
      retryAlone: (error) => !failsEveryone(error),
    },
  );
  return (appId: string, entity: string, record: R): Promise<Row[]> =>
    call(`${appId}\u0000${entity}`, { appId, entity, record });
}
