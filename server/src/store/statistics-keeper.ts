import type { Queryable } from './database';

// PGlite never auto-analyzes, and PostgreSQL's autovacuum may lag a bulk load: without fresh statistics
// the planner misjudges filters and sorts on a table that grew since it last looked. The keeper counts the
// rows this process inserted and refreshes the table's statistics once they reach GROWTH_FACTOR times what
// the last ANALYZE saw (and at least MIN_NEW_ROWS): a handful of ANALYZEs over a table's life, each
// bounded (ANALYZE samples at most 30,000 rows), run after the write that crossed the line, never inside it.

/** MIN_NEW_ROWS is how many inserted rows make an ANALYZE worth it, whatever the table's size. */
export const MIN_NEW_ROWS = 500;
/** GROWTH_FACTOR is how much a table grows between two ANALYZEs. */
export const GROWTH_FACTOR = 2;

/** StatisticsKeeper keeps one table's planner statistics fresh as rows are inserted into it. */
export interface StatisticsKeeper {
  /** inserted records that count rows were inserted; may schedule an ANALYZE after the current write. */
  inserted(count: number): void;
  /** analyzed records that the table was just analyzed (an import does so itself). */
  analyzed(): void;
  /** idle resolves when no ANALYZE is running or scheduled (for tests and shutdown). */
  idle(): Promise<void>;
}

/**
 * createStatisticsKeeper returns the keeper of table's statistics on db. A failed ANALYZE (the database
 * restarting) is reported to onError and retried at the next insert.
 */
export function createStatisticsKeeper(
  db: Queryable,
  table: 'entity_records' | 'users',
  onError: (error: unknown) => void = () => undefined,
): StatisticsKeeper {
  // Rows the last ANALYZE saw (null: not read yet) and rows inserted by this process since.
  let baseline: number | null = null;
  let pending = 0;
  let running: Promise<void> | null = null;

  async function readBaseline(): Promise<number> {
    const { rows } = await db.query<{ rows: number | string }>(
      `SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = $1::regclass`,
      [table],
    );
    // -1: never analyzed, as good as no statistics at all.
    return Math.max(0, Number(rows[0]?.rows ?? 0));
  }

  async function refresh(): Promise<void> {
    baseline ??= await readBaseline();
    if (pending < Math.max(MIN_NEW_ROWS, baseline * (GROWTH_FACTOR - 1))) return;
    pending = 0;
    await db.query(`ANALYZE ${table}`);
    baseline = await readBaseline();
  }

  function schedule(): void {
    if (running) return;
    running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(refresh)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  }

  return {
    inserted(count) {
      pending += count;
      if (pending >= MIN_NEW_ROWS) schedule();
    },
    analyzed() {
      pending = 0;
      baseline = null;
    },
    idle: async () => {
      while (running) await running;
    },
  };
}
