import { sqlState } from '../lib/database-errors';

// Group commit for single-record creates. Each autocommitted INSERT pays for its own commit (about three
// quarters of a create's engine time on PGlite; a WAL flush on PostgreSQL). Creates of one entity that
// arrive while earlier ones are being written wait and are then written together, as one statement in one
// commit. Nobody's answer comes before its row is committed, and a lone create is written at once, so a
// quiet server adds no latency; under load many creates share a commit instead of queueing for one each.

/** InsertRecords writes records of one entity in one statement and returns the stored rows. */
export type InsertRecords<R, Row> = (appId: string, entity: string, records: R[]) => Promise<Row[]>;

interface Waiting<R, Row> {
  record: R;
  resolve: (rows: Row[]) => void;
  reject: (error: unknown) => void;
}

interface Group<R, Row> {
  inFlight: number;
  waiting: Waiting<R, Row>[];
}

/** GroupOptions bounds a group: statements in flight at once, and records written in one statement. */
export interface GroupOptions {
  maxInFlight: number;
  maxRecords: number;
}

/**
 * A failure that concerns the whole database (lost connection, deadline, restart: SQLSTATE classes 08, 53,
 * 57) fails every create in the group; any other failure may come from one record's values, so each
 * record is then written alone and only that one fails.
 */
function failsEveryone(error: unknown): boolean {
  const state = sqlState(error);
  return state === null || /^(08|53|57)/.test(state);
}

/**
 * groupInserts returns insertOne(appId, entity, record) → the rows stored for record (none when its id
 * already existed), writing records that wait for the same entity together.
 */
export function groupInserts<R extends { id: string }, Row extends { id: string }>(
  insert: InsertRecords<R, Row>,
  options: GroupOptions,
) {
  const groups = new Map<string, Group<R, Row>>();

  async function writeAlone(appId: string, entity: string, entry: Waiting<R, Row>) {
    try {
      entry.resolve(await insert(appId, entity, [entry.record]));
    } catch (error) {
      entry.reject(error);
    }
  }

  async function write(appId: string, entity: string, batch: Waiting<R, Row>[]) {
    try {
      const rows = await insert(
        appId,
        entity,
        batch.map((entry) => entry.record),
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const entry of batch) {
        const row = byId.get(entry.record.id);
        entry.resolve(row ? [row] : []);
      }
    } catch (error) {
      if (batch.length === 1 || failsEveryone(error)) {
        for (const entry of batch) entry.reject(error);
      } else {
        for (const entry of batch) await writeAlone(appId, entity, entry);
      }
    }
  }

  async function drain(key: string, appId: string, entity: string, group: Group<R, Row>) {
    while (group.waiting.length > 0) {
      await write(appId, entity, group.waiting.splice(0, options.maxRecords));
    }
    group.inFlight -= 1;
    if (group.inFlight === 0) groups.delete(key);
  }

  return function insertOne(appId: string, entity: string, record: R): Promise<Row[]> {
    const key = `${appId}\u0000${entity}`;
    let group = groups.get(key);
    if (!group) {
      group = { inFlight: 0, waiting: [] };
      groups.set(key, group);
    }
    const result = new Promise<Row[]>((resolve, reject) => {
      group.waiting.push({ record, resolve, reject });
    });
    if (group.inFlight < options.maxInFlight) {
      group.inFlight += 1;
      void drain(key, appId, entity, group);
    }
    return result;
  };
}
