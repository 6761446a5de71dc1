import type { ReadScope } from '../rules/read-scope';
import { sortValueSql, type SqlParams } from './entity-filter-sql';

/** AggregateUnit is the time bucket of a date group. */
export type AggregateUnit = 'day' | 'week' | 'month' | 'year';

/**
 * AggregateGroup is one group column: a field's value (as jsonb), or a date bucket of a stamp column
 * (`created_date`/`updated_date`) or of a date/date-time string field. Buckets are strings: `YYYY-MM-DD`
 * (day, week = its Monday), `YYYY-MM` (month) or `YYYY` (year), all UTC.
 */
export interface AggregateGroup {
  name: string;
  field: string;
  bucket?: { unit: AggregateUnit; source: 'column' | 'string' };
}

/** AggregateMeasure is one computed column: `count`, or an operation over a field. */
export interface AggregateMeasure {
  name: string;
  op: 'count' | 'sum' | 'avg' | 'min' | 'max' | 'count_distinct';
  field?: string;
}

/** AggregateComparison is one `having` condition on a computed column. */
export interface AggregateComparison {
  name: string;
  op: '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte';
  value: number;
}

/** AggregatePlan is a validated aggregate spec, every name already checked against the entity. */
export interface AggregatePlan {
  groups: AggregateGroup[];
  measures: AggregateMeasure[];
  having: AggregateComparison[];
  sort?: { name: string; descending: boolean } | undefined;
  limit: number;
}

const COMPARE: Record<AggregateComparison['op'], string> = {
  $eq: '=',
  $ne: '<>',
  $gt: '>',
  $gte: '>=',
  $lt: '<',
  $lte: '<=',
};
const BUCKET_FORMAT: Record<AggregateUnit, string> = {
  day: 'YYYY-MM-DD',
  week: 'YYYY-MM-DD',
  month: 'YYYY-MM',
  year: 'YYYY',
};
const BUCKET_LENGTH: Record<AggregateUnit, number> = { day: 10, week: 10, month: 7, year: 4 };

function groupSql(group: AggregateGroup, params: SqlParams, visibility: ReadScope): string {
  if (group.bucket?.source === 'column') {
    const column = group.field === 'updated_date' ? 'updated_date' : 'created_date';
    const unit = params.add(group.bucket.unit);
    const format = params.add(BUCKET_FORMAT[group.bucket.unit]);
    return `to_jsonb(to_char(date_trunc(${unit}, ${column} AT TIME ZONE 'UTC'), ${format}))`;
  }
  const value = `(${sortValueSql(group.field, params, visibility)})`;
  if (group.bucket) {
    const length = params.add(BUCKET_LENGTH[group.bucket.unit]);
    return `CASE WHEN jsonb_typeof(${value}) = 'string' THEN to_jsonb(left(${value} #>> '{}', ${length}::int)) END`;
  }
  return value;
}

function measureSql(measure: AggregateMeasure, params: SqlParams, visibility: ReadScope): string {
  if (measure.op === 'count') return 'count(*)::int';
  const value = `(${sortValueSql(measure.field ?? '', params, visibility)})`;
  if (measure.op === 'count_distinct') {
    return `count(DISTINCT CASE WHEN jsonb_typeof(${value}) <> 'null' THEN ${value} END)::int`;
  }
  // Only JSON numbers count; other values (strings, missing) are ignored like SQL NULLs.
  return `${measure.op}(CASE WHEN jsonb_typeof(${value}) = 'number' THEN (${value})::numeric END)::float8`;
}

/**
 * aggregateSql builds `SELECT … GROUP BY` over the rows `condition` selects (rule and query, already
 * compiled into params), wrapped so `having`, sort and `LIMIT limit + 1` apply to the computed columns.
 * Columns are aliased g<i>/m<i>; the caller maps them back to the plan's names.
 */
export function aggregateSql(
  plan: AggregatePlan,
  condition: string,
  params: SqlParams,
  visibility: ReadScope = new Map(),
  relation = 'entity_records',
): string {
  const groups = plan.groups.map((group, i) => `${groupSql(group, params, visibility)} AS g${i}`);
  const measures = plan.measures.map((measure, i) => `${measureSql(measure, params, visibility)} AS m${i}`);
  const alias = (name: string) => {
    const g = plan.groups.findIndex((group) => group.name === name);
    if (g >= 0) return `a.g${g}`;
    return `a.m${plan.measures.findIndex((measure) => measure.name === name)}`;
  };
  const having = plan.having.map(
    (condition) => `${alias(condition.name)} ${COMPARE[condition.op]} ${params.add(condition.value)}::float8`,
  );
  const order: string[] = [];
  if (plan.sort) {
    order.push(`${alias(plan.sort.name)} ${plan.sort.descending ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`);
  }
  plan.groups.forEach((_, i) => order.push(`a.g${i} ASC NULLS FIRST`));
  const groupBy = plan.groups.length ? ` GROUP BY ${plan.groups.map((_, i) => i + 1).join(', ')}` : '';
  const columns = [...groups, ...measures].join(', ');
  return (
    `SELECT * FROM (SELECT ${columns} FROM ${relation} WHERE ${condition}${groupBy}) AS a` +
    ` WHERE ${having.length ? having.join(' AND ') : 'true'}` +
    (order.length ? ` ORDER BY ${order.join(', ')}` : '') +
    ` LIMIT ${params.add(plan.limit + 1)}`
  );
}
