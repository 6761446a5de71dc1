// Counting entity records: how many a selection holds, and aggregates (groups and measures) over them.
import type { Database } from './database';
import { aggregateSql, type AggregatePlan } from './entity-aggregate-sql';
import { SqlParams } from './entity-filter-sql';
import { from, run, where, type Selection } from './entity-records-sql';

/** EntityRecordCounts are the statements that count records. */
export interface EntityRecordCounts {
  /** count returns how many records the selection holds. */
  count(selection: Selection): Promise<number>;
  /** aggregate groups the selected records by plan: at most plan.limit rows, and whether more existed. */
  aggregate(
    selection: Selection,
    plan: AggregatePlan,
  ): Promise<{ rows: Record<string, unknown>[]; truncated: boolean }>;
}

/** createEntityRecordCounts returns the counts of entity records on db. */
export function createEntityRecordCounts(db: Database): EntityRecordCounts {
  return {
    async count(selection) {
      const params = new SqlParams();
      const condition = where(selection, params);
      const rows = await run<{ n: number | string }>(
        db,
        `SELECT count(*) AS n FROM ${from(selection)} WHERE ${condition}`,
        params.values,
      );
      return Number(rows[0]?.n ?? 0);
    },

    /** aggregate: rule and query are in the WHERE clause; rows are keyed by the plan's names. */
    async aggregate(selection, plan) {
      const params = new SqlParams();
      const condition = where(selection, params);
      const sql = aggregateSql(plan, condition, params, selection.visibility, from(selection));
      const found = await run<Record<string, unknown>>(db, sql, params.values);
      const rows = found.slice(0, plan.limit).map((row) => {
        const out: Record<string, unknown> = {};
        plan.groups.forEach((group, i) => (out[group.name] = row[`g${i}`] ?? null));
        plan.measures.forEach((measure, i) => (out[measure.name] = row[`m${i}`] ?? null));
        return out;
      });
      return { rows, truncated: found.length > plan.limit };
    },
  };
}
