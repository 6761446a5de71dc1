import { InvalidInputError } from '../../lib/errors';
import type { PropertySchema } from '../../schemas/entity-project';
import type {
  AggregateComparison,
  AggregateGroup,
  AggregateMeasure,
  AggregatePlan,
  AggregateUnit,
} from '../../store/entity-aggregate-sql';
import type { EntityDef } from '../../project/project-loader';

/** MAX_AGGREGATE_ROWS is the most rows one aggregate returns (the SDK's documented 1,000); more sets `truncated`. */
export const MAX_AGGREGATE_ROWS = 1000;
/** MAX_GROUP_FIELDS is how many group columns (groupBy fields plus a dateBucket) one aggregate may have. */
export const MAX_GROUP_FIELDS = 4;

const SPEC_KEYS = new Set([
  'query',
  'groupBy',
  'dateBucket',
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'countDistinct',
  'having',
  'sort',
  'limit',
]);
const STAMPS = new Set(['id', 'created_by', 'created_by_id', 'created_date', 'updated_date']);
const UNITS = new Set<AggregateUnit>(['day', 'week', 'month', 'year']);
const COMPARISONS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);

const bad = (message: string): never => {
  throw new InvalidInputError(`Invalid aggregate spec: ${message}`);
};

function typesOf(schema: PropertySchema | undefined): string[] {
  if (!schema || schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function fieldList(key: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && item.length > 0)) {
    return bad(`"${key}" must be a field name or an array of field names`);
  }
  return [...new Set(list as string[])];
}

/**
 * parseAggregateSpec checks an SDK aggregate spec against the entity and returns the plan and the query.
 * Group and distinct fields are schema fields (top level, or dotted into an object field) or the stamps;
 * sum/avg/min/max take top-level number or integer fields. Every problem is a 400 naming it.
 */
export function parseAggregateSpec(
  entity: EntityDef,
  spec: unknown,
): { plan: AggregatePlan; query: unknown } {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    return bad('the request body must be a JSON object');
  }
  const body = spec as Record<string, unknown>;
  const unknown = Object.keys(body).filter((key) => !SPEC_KEYS.has(key));
  if (unknown.length) bad(`unknown key(s) ${unknown.map((key) => `"${key}"`).join(', ')}`);

  const known = (field: string, key: string) => {
    const top = field.split('.')[0] ?? '';
    if (STAMPS.has(field) || (Object.hasOwn(entity.properties, top) && !field.includes('..'))) return;
    bad(`"${key}" names "${field}", which is not a field of ${entity.name}`);
  };

  const groups: AggregateGroup[] = fieldList('groupBy', body.groupBy).map((field) => {
    known(field, 'groupBy');
    return { name: field, field };
  });
  if (body.dateBucket !== undefined && body.dateBucket !== null) {
    const bucket = body.dateBucket as { field?: unknown; unit?: unknown };
    if (typeof bucket !== 'object' || typeof bucket.field !== 'string' || typeof bucket.unit !== 'string') {
      bad('"dateBucket" must be {field, unit}');
    }
    const field = bucket.field as string;
    const unit = bucket.unit as AggregateUnit;
    if (!UNITS.has(unit)) bad(`"dateBucket.unit" must be one of day, week, month, year (got "${unit}")`);
    if (field === 'created_date' || field === 'updated_date') {
      groups.push({ name: field, field, bucket: { unit, source: 'column' } });
    } else {
      const schema = entity.properties[field];
      if (
        !schema ||
        !typesOf(schema).includes('string') ||
        !['date', 'date-time'].includes(schema.format ?? '')
      ) {
        bad(
          `"dateBucket.field" must be created_date, updated_date or a date field of ${entity.name} (got "${field}")`,
        );
      }
      if (unit === 'week') bad(`"dateBucket.unit" week is only supported on created_date and updated_date`);
      groups.push({ name: field, field, bucket: { unit, source: 'string' } });
    }
  }
  if (new Set(groups.map((group) => group.name)).size !== groups.length) {
    bad('a field is both in "groupBy" and "dateBucket"');
  }
  if (groups.length > MAX_GROUP_FIELDS)
    bad(`at most ${MAX_GROUP_FIELDS} group fields (got ${groups.length})`);

  const measures: AggregateMeasure[] = [];
  if (body.count !== undefined && typeof body.count !== 'boolean') bad('"count" must be true or false');
  if (body.count !== false) measures.push({ name: 'count', op: 'count' });
  for (const op of ['sum', 'avg', 'min', 'max'] as const) {
    for (const field of fieldList(op, body[op])) {
      const types = typesOf(entity.properties[field]);
      if (!Object.hasOwn(entity.properties, field) || !types.some((t) => t === 'number' || t === 'integer')) {
        bad(`"${op}" needs number fields; "${field}" is not a number field of ${entity.name}`);
      }
      measures.push({ name: `${op}_${field}`, op, field });
    }
  }
  if (body.countDistinct !== undefined && body.countDistinct !== null) {
    if (typeof body.countDistinct !== 'string') bad('"countDistinct" must be a field name');
    const field = body.countDistinct as string;
    known(field, 'countDistinct');
    measures.push({ name: `count_distinct_${field}`, op: 'count_distinct', field });
  }
  if (groups.length === 0 && measures.length === 0)
    bad('nothing to compute: group by a field or ask for a measure');

  const names = new Set([...groups.map((group) => group.name), ...measures.map((measure) => measure.name)]);
  const measureNames = new Set(measures.map((measure) => measure.name));
  const having: AggregateComparison[] = [];
  if (body.having !== undefined && body.having !== null) {
    if (typeof body.having !== 'object' || Array.isArray(body.having)) bad('"having" must be an object');
    for (const [name, condition] of Object.entries(body.having as Record<string, unknown>)) {
      if (!measureNames.has(name)) {
        bad(
          `"having" names "${name}", which is not a computed field (${[...measureNames].join(', ') || 'none'})`,
        );
      }
      if (typeof condition === 'number') {
        having.push({ name, op: '$eq', value: condition });
        continue;
      }
      if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) {
        bad(`"having.${name}" must be a number or an object of $eq/$ne/$gt/$gte/$lt/$lte`);
      }
      for (const [op, value] of Object.entries(condition as Record<string, unknown>)) {
        if (!COMPARISONS.has(op)) bad(`"having.${name}" has unknown operator "${op}"`);
        if (typeof value !== 'number' || !Number.isFinite(value))
          bad(`"having.${name}.${op}" must be a number`);
        having.push({ name, op: op as AggregateComparison['op'], value: value as number });
      }
    }
  }

  let sort: AggregatePlan['sort'];
  if (body.sort !== undefined && body.sort !== null) {
    if (typeof body.sort !== 'string') bad('"sort" must be a string such as "-count"');
    const text = (body.sort as string).trim();
    const name = text.replace(/^[-+]/, '');
    if (!names.has(name)) bad(`"sort" names "${name}", which is not a group or computed field`);
    sort = { name, descending: text.startsWith('-') };
  }

  let limit = MAX_AGGREGATE_ROWS;
  if (body.limit !== undefined && body.limit !== null) {
    if (typeof body.limit !== 'number' || !Number.isInteger(body.limit) || body.limit < 1) {
      bad('"limit" must be a whole number ≥ 1');
    }
    limit = Math.min(body.limit as number, MAX_AGGREGATE_ROWS);
  }

  const query = body.query ?? undefined;
  if (query !== undefined && (typeof query !== 'object' || Array.isArray(query))) {
    bad('"query" must be an object');
  }
  return { plan: { groups, measures, having, sort, limit }, query };
}
