import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../rules/caller';
import { matchesRule, readPath } from '../../rules/evaluate-rule';
import { RuleSchema, type Rule } from '../../rules/rule-schema';
import type { PropertySchema } from '../../schemas/entity-project';
import type { Database } from '../../store/database';
import { createEntityRecordsStore, type EntityRecordsStore } from '../../store/entity-records-store';
import { openTestDatabase, TEST_ENGINES, type TestDatabase } from '../../test-support/open-test-database';
import { visibleTo } from '../delivery/entity-delivery';
import { createEntitiesService } from './entities-service';
import type { EntityDef, Project } from '../../project/entity-def';
import { createEntityEvents } from './entity-events';
import { toRecord } from './record-presenter';

// The rule language has two evaluators (rules/evaluate-rule.ts, rules/read-scope.ts): SQL, which decides
// what list/get/count answer, and JS, which decides what realtime delivery sends. For random records,
// rules (record rules and field read rules) and callers, both must give the same answer: the same records
// with the same fields, and the same answer to a query on a field a read rule may hide.

// CI pins the property-test seed (FC_SEED in .ci/run) so a landing is reproducible; local runs explore.
if (process.env.FC_SEED) fc.configureGlobal({ seed: Number(process.env.FC_SEED) });

const APP = 'app';
const ENTITY = 'T';

// ---- generators: small pools, so rules and records often meet ----

const EMAILS = ['alice@x.test', 'bob@x.test'];
const IDS = ['u1', 'u2'];
const scalar = fc.constantFrom<unknown>('red', 'blue', 'x', 0, 1, 2, true, false, null);
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>({ level: 1 }, [['red']], [], [{ owner: 'red' }], [null, 1]),
  },
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });

const customData = fc.record(
  {
    team: maybe(fc.constantFrom<unknown>('red', 'blue', 1, null, ['red', 'x'], { level: 1 })),
    level: maybe(scalar),
  },
  { requiredKeys: [] },
);
const caller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'anonymous' }) },
  { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'service' }) },
  {
    weight: 6,
    arbitrary: fc
      .record({
        who: fc.integer({ min: 0, max: 1 }),
        role: fc.constantFrom('admin', 'user'),
        custom: customData,
      })
      .map(({ who, role, custom }): Caller => {
        const clean = Object.fromEntries(Object.entries(custom).filter(([, v]) => v !== undefined));
        return {
          kind: 'user',
          user: { id: IDS[who] as string, email: EMAILS[who] as string, role, full_name: 'N', custom: clean },
        };
      }),
  },
);

const RULE_FIELDS = ['created_by', 'created_by_id', 'id', 'team', 'data.team', 'level', 'tags', 'meta.owner'];
const TEMPLATES = [
  '{{user.email}}',
  '{{user.id}}',
  '{{user.data.team}}',
  '{{user.data.level}}',
  'x-{{user.data.team}}',
];
const primitive = fc.oneof(
  fc.constantFrom<string | number | boolean | null>(
    'red',
    'blue',
    'x',
    1,
    2,
    true,
    null,
    'r1',
    ...EMAILS,
    ...IDS,
  ),
  fc.constantFrom(...TEMPLATES),
);
const operand = fc.oneof(
  { weight: 3, arbitrary: primitive },
  { weight: 1, arbitrary: fc.record({ $eq: primitive }) },
  { weight: 1, arbitrary: fc.record({ $ne: primitive }) },
  // Up to 10 values: from 8 the SQL reads the field once and compares with `= ANY` (evaluate-rule.ts).
  { weight: 1, arbitrary: fc.record({ $in: fc.array(primitive, { maxLength: 10 }) }) },
  { weight: 1, arbitrary: fc.record({ $nin: fc.array(primitive, { maxLength: 10 }) }) },
  { weight: 1, arbitrary: fc.record({ $all: fc.array(primitive, { maxLength: 2 }) }) },
);
const userCondition = fc.oneof(
  fc.constant({ role: 'admin' }),
  fc.record({ 'data.team': operand }),
  fc.record({ email: operand }),
);
const { condition } = fc.letrec<{ condition: Record<string, unknown> }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    {
      weight: 4,
      arbitrary: fc.tuple(fc.constantFrom(...RULE_FIELDS), operand).map(([k, v]) => ({ [k]: v })),
    },
    { weight: 1, arbitrary: userCondition.map((check) => ({ user_condition: check })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('$or', '$and', '$nor'),
          fc.array(tie('condition'), { minLength: 1, maxLength: 3 }),
        )
        .map(([op, items]) => ({ [op]: items })),
    },
  ),
}));
const rule: fc.Arbitrary<Rule> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<Rule>(true, false, null, '', {}) },
  { weight: 6, arbitrary: condition as fc.Arbitrary<Rule> },
  {
    weight: 2,
    arbitrary: fc.tuple(condition, condition).map(([a, b]) => ({ ...a, ...b }) as Rule),
  },
);

const record = fc.record({
  created_by: fc.constantFrom<string | null>(...EMAILS, null),
  created_by_id: fc.constantFrom<string | null>(...IDS, 'service-role', null),
  data: fc.record(
    {
      team: value,
      level: value,
      tags: value,
      meta: fc.oneof(fc.record({ owner: value, level: value }, { requiredKeys: [] }), value),
      lines: fc.array(fc.record({ cost: scalar, sku: scalar }, { requiredKeys: [] }), { maxLength: 2 }),
    },
    { requiredKeys: [] },
  ),
});

/** entityWith is entity T with the given record read rule and field read rules. */
function entityWith(read: Rule, fields: Record<string, Rule | undefined>): EntityDef {
  const rls = (path: string) => (fields[path] === undefined ? {} : { rls: { read: fields[path] } });
  const properties: Record<string, PropertySchema> = {
    team: { ...rls('team') },
    level: {},
    tags: { type: 'array', items: {} },
    meta: {
      type: 'object',
      properties: { owner: { ...rls('meta.owner') }, level: {} },
      ...rls('meta'),
    },
    lines: {
      type: 'array',
      items: { type: 'object', properties: { cost: { ...rls('lines.cost') }, sku: {} } },
    },
  };
  return { name: ENTITY, properties, required: [], rls: { read } };
}

const scenario = fc.record({
  records: fc.array(record, { minLength: 1, maxLength: 6 }),
  read: rule,
  fields: fc.record({ team: rule, meta: rule, 'meta.owner': rule, 'lines.cost': rule }, { requiredKeys: [] }),
  caller,
  probe: fc.tuple(
    fc.constantFrom('team', 'level', 'tags', 'meta', 'meta.owner', 'meta.level', 'lines'),
    scalar,
  ),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** agree checks one scenario on db: what list answers (SQL) is what realtime delivery sends (JS). */
async function agree(store: EntityRecordsStore, db: Database, s: Scenario): Promise<void> {
  for (const r of [s.read, ...Object.values(s.fields)]) expect(RuleSchema.safeParse(r).success).toBe(true);
  const entity = entityWith(s.read, s.fields);
  const project: Project = { name: 'p', dir: '/p', entities: new Map([[ENTITY, entity]]), seeds: [] };
  const service = createEntitiesService({
    project,
    store,
    events: createEntityEvents(),
    users: {
      update: () => Promise.reject(new Error('not used')),
      remove: () => Promise.reject(new Error('not used')),
    },
  });
  await db.query(`DELETE FROM entity_records WHERE app_id = $1`, [APP]);
  await store.insertMany(
    APP,
    ENTITY,
    s.records.map((r, index) => ({ id: `r${index}`, ...r })),
  );
  const stored = await store.findMany(
    { appId: APP, entity: ENTITY, rule: true },
    { limit: 100, skip: 0, sort: 'id' },
  );

  // JS: each record as realtime delivery decides it.
  const delivered = stored
    .map((row) => visibleTo(project, { entity: ENTITY, record: toRecord(row) }, s.caller))
    .filter((seen): seen is Record<string, unknown> => seen !== null);
  // SQL: the records list answers (the record rule in the WHERE clause).
  const listed = await service.list(APP, ENTITY, s.caller, { sort: 'id', limit: 100 });
  expect(listed).toEqual(delivered);

  // A query on a field a read rule may hide: SQL reads it through the read scope, JS on the delivered record.
  const [path, probe] = s.probe;
  const exists = await service.count(APP, ENTITY, s.caller, { [path]: { $exists: true } });
  expect(exists).toBe(delivered.filter((seen) => readPath(seen, path) !== undefined).length);
  const equal = await service.count(APP, ENTITY, s.caller, { [path]: { $eq: probe } });
  expect(equal).toBe(delivered.filter((seen) => matchesRule(seen, { [path]: { $eq: probe } })).length);
}

async function prepare(db: Database): Promise<EntityRecordsStore> {
  await db.query(`INSERT INTO apps (id) VALUES ($1) ON CONFLICT DO NOTHING`, [APP]);
  return createEntityRecordsStore(db);
}

const RUNS = { numRuns: Number(process.env.RULES_RUNS ?? 200) };

describe('the SQL and JS rule evaluations agree', () => {
  describe.each(TEST_ENGINES)('on %s', (engine) => {
    let opened: TestDatabase | undefined;
    let store: EntityRecordsStore | undefined;
    beforeAll(async () => {
      opened = await openTestDatabase({ engine, name: 'rules_agree' });
      store = await prepare(opened.db);
    }, 60_000);
    afterAll(() => opened?.close());

    it('for random records, rules and callers', async () => {
      const [ready, on] = [store as EntityRecordsStore, (opened as TestDatabase).db];
      await fc.assert(
        fc.asyncProperty(scenario, (s) => agree(ready, on, s)),
        RUNS,
      );
    }, 120_000);
  });
});
