import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../lib/errors';
import {
  compileFilter,
  compileSort,
  MAX_IN_VALUES,
  MAX_QUERY_CONDITIONS,
  MAX_QUERY_DEPTH,
  MAX_QUERY_PATTERNS,
  MAX_REGEX_SCAN_CHARS,
  MAX_SCANNING_PATTERNS,
  SqlParams,
} from './entity-filter-sql';
import { createEntityRecordsStore, type EntityRecordsStore } from './entity-records-store';
import { openTestDatabase, TEST_ENGINES, type TestEngine } from '../test-support/open-test-database';

// CI pins the property-test seed (FC_SEED in .ci/run) so a landing is reproducible; local runs explore.
if (process.env.FC_SEED) fc.configureGlobal({ seed: Number(process.env.FC_SEED) });

// The translator is checked by what the database answers, not by the SQL text it produces: the same
// contract on PGlite and on PostgreSQL (with DATABASE_URL, as CI sets it).
let store: EntityRecordsStore;

const RECORDS = [
  { id: 'a', data: { title: 'Alpha', n: 1, tags: ['x', 'y'], meta: { score: 5 }, done: true } },
  { id: 'b', data: { title: 'beta', n: 2, tags: ['y'], meta: { score: 1 }, done: false, note: null } },
  {
    id: 'c',
    data: {
      title: 'Gamma',
      n: 3,
      tags: [],
      items: [
        { k: 'p', v: 2 },
        { k: 'q', v: 9 },
      ],
    },
  },
  { id: 'd', data: { title: 'delta', n: '4', tags: 'x' } },
];

/** seeded opens a migrated database on engine and stores RECORDS; the store is what every test reads. */
async function seeded(engine: TestEngine) {
  const opened = await openTestDatabase({ engine, name: 'filter_sql' });
  await opened.db.query(`INSERT INTO apps (id) VALUES ('app')`);
  store = createEntityRecordsStore(opened.db);
  await store.insertMany(
    'app',
    'T',
    RECORDS.map((record) => ({
      ...record,
      created_by: record.id === 'a' ? 'u@x.test' : null,
      created_by_id: null,
    })),
  );
  return opened;
}

async function ids(query: unknown, rule: boolean | Record<string, unknown> = true): Promise<string[]> {
  const rows = await store.findMany(
    { appId: 'app', entity: 'T', query, rule },
    { limit: 100, skip: 0, sort: 'id' },
  );
  return rows.map((row) => row.id);
}

for (const engine of TEST_ENGINES) {
  describe(`on ${engine}`, () => {
    let opened: { close: () => Promise<void> } | undefined;
    beforeAll(async () => {
      opened = await seeded(engine);
    }, 60_000);
    afterAll(async () => {
      await opened?.close();
    });

    describe('compileFilter on PostgreSQL', () => {
      it.each([
        [{}, ['a', 'b', 'c', 'd']],
        [{ title: 'Alpha' }, ['a']],
        [{ tags: 'x' }, ['a', 'd']],
        [{ title: ['Alpha', 'beta'] }, ['a', 'b']],
        [{ n: { $gt: 1 } }, ['b', 'c']],
        [{ n: { $gte: 2, $lt: 3 } }, ['b']],
        [{ n: { $lte: '9' } }, ['d']],
        [{ n: { $ne: 1 } }, ['b', 'c', 'd']],
        [{ n: { $in: [1, 3] } }, ['a', 'c']],
        [{ n: { $nin: [1, 3] } }, ['b', 'd']],
        [{ done: null }, ['c', 'd']],
        [{ note: null }, ['a', 'b', 'c', 'd']],
        [{ note: { $exists: true } }, ['b']],
        [{ meta: { $exists: false } }, ['c', 'd']],
        [{ 'meta.score': { $gte: 2 } }, ['a']],
        [{ title: { $regex: '^[a-z]' } }, ['b', 'd']],
        [{ title: { $regex: '^a', $options: 'i' } }, ['a']],
        [{ tags: { $all: ['x', 'y'] } }, ['a']],
        [{ tags: { $size: 0 } }, ['c']],
        [{ n: { $not: { $gt: 1 } } }, ['a', 'd']],
        [{ items: { $elemMatch: { k: 'q', v: { $gt: 5 } } } }, ['c']],
        [{ items: { $elemMatch: { k: 'p', v: { $gt: 5 } } } }, []],
        [{ tags: { $elemMatch: { $eq: 'y' } } }, ['a', 'b']],
        // Regression (found by the property test): nested $elemMatch once reused the outer alias.
        [{ title: { $elemMatch: { $elemMatch: {} } } }, []],
        [{ items: { $elemMatch: { k: 'q', tags: { $elemMatch: { $eq: 'z' } } } } }, []],
        [{ $or: [{ n: 1 }, { title: 'Gamma' }] }, ['a', 'c']],
        [{ $and: [{ done: { $exists: true } }, { done: false }] }, ['b']],
        [{ $nor: [{ n: 1 }, { n: 2 }] }, ['c', 'd']],
        [{ id: 'c' }, ['c']],
        [{ created_by: 'u@x.test' }, ['a']],
        [{ created_date: { $gt: '2000-01-01' } }, ['a', 'b', 'c', 'd']],
        [{ meta: { score: 5 } }, ['a']],
        [{ 'tags.0': 'y' }, ['b']],
        [JSON.parse('{"__proto__":"x","constructor":{"$exists":true}}'), []],
      ])('%j matches %j', async (query, expected) => {
        expect(await ids(query)).toEqual(expected);
      });

      it.each([
        [{ n: { $foo: 1 } }, 'unknown operator'],
        [{ $where: 'x' }, 'unknown operator'],
        [{ n: { $in: 1 } }, '$in needs an array'],
        [{ n: { $gt: { a: 1 } } }, '$gt needs'],
        [{ n: { $size: -1 } }, '$size'],
        [{ n: { $regex: '(' } }, 'never closed'],
        [{ n: { $regex: 'a', $options: 'g' } }, '$options'],
        [{ n: { $gt: 1, x: 2 } }, 'mixes operators'],
        [{ 'a..b': 1 }, 'not a valid field path'],
        [{ $or: {} }, 'needs an array'],
        [[1], 'JSON object'],
      ])('%j is refused (%s)', (query, message) => {
        expect(() => compileFilter(query, new SqlParams())).toThrow(message);
      });

      it('bounds the cost of a query: conditions, depth and distinct $regex patterns, each named', () => {
        const compile = (query: unknown) => () => compileFilter(query, new SqlParams());
        const many = (n: number, item: (i: number) => unknown) =>
          Array.from({ length: n }, (_, i) => item(i));
        expect(compile({ $or: many(MAX_QUERY_CONDITIONS - 1, (i) => ({ n: i })) })).not.toThrow();
        expect(compile({ $or: many(MAX_QUERY_CONDITIONS, (i) => ({ n: i })) })).toThrow(
          `more than ${MAX_QUERY_CONDITIONS} conditions`,
        );
        // $all too (its `@>` costs the product of both arrays' sizes: 60,000 tags held PGlite 6 s).
        for (const op of ['$in', '$nin', '$all']) {
          expect(compile({ tags: { [op]: many(MAX_IN_VALUES, String) } })).not.toThrow();
          expect(compile({ tags: { [op]: many(MAX_IN_VALUES + 1, String) } })).toThrow(
            `takes at most ${MAX_IN_VALUES}`,
          );
        }
        const regexes = (n: number) => ({ $or: many(n, (i) => ({ title: { $regex: `^t${i}` } })) });
        expect(compile(regexes(MAX_QUERY_PATTERNS))).not.toThrow();
        expect(compile(regexes(MAX_QUERY_PATTERNS + 1))).toThrow(
          `more than ${MAX_QUERY_PATTERNS} distinct $regex patterns`,
        );
        // Patterns that read whole values are capped lower; anchored, bounded ones read only a prefix.
        const scanning = (n: number) => ({ $or: many(n, (i) => ({ title: { $regex: `t${i}` } })) });
        expect(compile(scanning(MAX_SCANNING_PATTERNS))).not.toThrow();
        expect(compile(scanning(MAX_SCANNING_PATTERNS + 1))).toThrow(
          `more than ${MAX_SCANNING_PATTERNS} distinct $regex patterns that read whole values`,
        );
        expect(
          compile({ $or: many(MAX_SCANNING_PATTERNS + 1, (i) => ({ t: { $regex: `^t${i}+` } })) }),
        ).toThrow('read whole values');
        // A query over both caps is named by the distinct-pattern cap, whatever its order.
        expect(compile(scanning(MAX_QUERY_PATTERNS + 1))).toThrow(`more than ${MAX_QUERY_PATTERNS} distinct`);
        // The same pattern repeated counts once.
        expect(compile({ $or: many(90, () => ({ title: { $regex: '^t' } })) })).not.toThrow();
        let nested: unknown = { n: 1 };
        for (let i = 0; i <= MAX_QUERY_DEPTH; i += 1) nested = { $and: [nested] };
        expect(compile(nested)).toThrow(`nesting deeper than ${MAX_QUERY_DEPTH}`);
      });

      it.each([
        [{ title: { $regex: '(a{1,255}){1,255}' } }],
        [{ title: { $not: { $regex: '(a+)+$' } } }],
        [{ title: { $regex: '(a|aa)*c', $options: 'i' } }],
        [{ items: { $elemMatch: { k: { $regex: '(x+)+' } } } }],
        [{ tags: { $elemMatch: { $regex: 'a{101}' } } }],
        [{ title: { $regex: 'a[ab]{99}c' } }],
        [{ title: { $regex: 'a[ab]{4}c' } }],
      ])('refuses a $regex that could blow up, on every operator path: %j', (query) => {
        expect(() => compileFilter(query, new SqlParams())).toThrow(/Invalid query: \$regex/);
      });

      it(`applies $regex to the first ${MAX_REGEX_SCAN_CHARS} characters of a value only`, async () => {
        const padding = 'x'.repeat(MAX_REGEX_SCAN_CHARS - 6);
        await store.insertMany('app', 'Long', [
          { id: 'in', data: { text: `${padding}needle` }, created_by: null, created_by_id: null },
          { id: 'out', data: { text: `${padding}xneedle` }, created_by: null, created_by_id: null },
        ]);
        const found = await store.findMany(
          { appId: 'app', entity: 'Long', query: { text: { $regex: 'needle' } }, rule: true },
          { limit: 10, skip: 0, sort: 'id' },
        );
        expect(found.map((row) => row.id)).toEqual(['in']);
      });

      it('hides a field from the query where its read rule fails', async () => {
        const rows = await store.findMany(
          {
            appId: 'app',
            entity: 'T',
            query: { n: { $exists: true } },
            rule: true,
            visibility: new Map([['n', { id: 'a' }]]),
          },
          { limit: 10, skip: 0, sort: 'id' },
        );
        expect(rows.map((row) => row.id)).toEqual(['a']);
      });

      describe('nested read rules', () => {
        // meta.score shows only on record a; items[].v shows nowhere.
        const visibility = new Map<string, Record<string, unknown> | boolean>([
          ['meta.score', { id: 'a' }],
          ['items.[].v', false],
        ]);
        const hidden = async (query: unknown, sort = 'id') =>
          (
            await store.findMany(
              { appId: 'app', entity: 'T', query, rule: true, visibility },
              { limit: 10, skip: 0, sort },
            )
          ).map((row) => row.id);

        it.each([
          [{ 'meta.score': { $exists: true } }, ['a']],
          [{ 'meta.score': 1 }, []],
          [{ 'meta.score': { $lt: 10 } }, ['a']],
          [{ meta: { score: 1 } }, []],
          // b's meta reads as {} once its score is removed; a keeps its score.
          [{ meta: {} }, ['b']],
          [{ meta: { score: 5 } }, ['a']],
          [{ 'items.0.v': 2 }, []],
          [{ 'items.1': { k: 'q' } }, ['c']],
          [{ items: { $elemMatch: { v: 9 } } }, []],
          [{ items: { $elemMatch: { k: 'q' } } }, ['c']],
          [{ items: { $all: [{ k: 'p', v: 2 }] } }, []],
          [{ 'items.v': { $exists: true } }, []],
        ])('%j sees %j', async (query, expected) => {
          expect(await hidden(query)).toEqual(expected);
        });

        it('sorts a hidden nested value as missing', async () => {
          expect(await hidden({}, 'meta.score')).toEqual(['b', 'c', 'd', 'a']);
          expect(await hidden({}, '-meta.score')).toEqual(['a', 'b', 'c', 'd']);
          expect(await hidden({}, 'items.0.v')).toEqual(['a', 'b', 'c', 'd']);
        });

        it('keeps hidden nested values out of distinct values', async () => {
          const selection = { appId: 'app', entity: 'T', rule: true, visibility };
          expect((await store.distinctValues(selection, 'meta.score', 10)).values).toEqual([5]);
          expect((await store.distinctValues(selection, 'meta', 10)).values).toEqual([{}, { score: 5 }]);
          expect((await store.distinctValues(selection, 'items', 10)).values).toEqual([
            [{ k: 'p' }, { k: 'q' }],
          ]);
        });
      });

      it('applies the rule before LIMIT/OFFSET', async () => {
        const rows = await store.findMany(
          { appId: 'app', entity: 'T', rule: { $or: [{ id: 'c' }, { id: 'd' }] } },
          { limit: 1, skip: 1, sort: 'id' },
        );
        expect(rows.map((row) => row.id)).toEqual(['d']);
      });

      it('sorts by fields, directions and lists, ignoring tokens that are not fields', async () => {
        const sorted = async (sort: string) =>
          (await store.findMany({ appId: 'app', entity: 'T', rule: true }, { limit: 10, skip: 0, sort })).map(
            (row) => row.id,
          );
        // jsonb orders numbers above strings, so the string "4" sorts last when descending.
        expect(await sorted('-n')).toEqual(['c', 'b', 'a', 'd']);
        expect(await sorted('done,-id')).toEqual(['d', 'c', 'b', 'a']);
        expect(await sorted('10')).toHaveLength(4);
        expect(compileSort('$x, ;drop', new SqlParams())).toBe('entity_records.created_date DESC, id ASC');
      });
    });

    const key = fc.constantFrom(
      'title',
      'n',
      'tags',
      'meta.score',
      'id',
      'created_by',
      '__proto__',
      'constructor',
      'x.0',
    );
    const scalar = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.double(),
    );
    const operator = fc.constantFrom(
      '$eq',
      '$ne',
      '$gt',
      '$gte',
      '$lt',
      '$lte',
      '$in',
      '$nin',
      '$exists',
      '$regex',
      '$all',
      '$size',
      '$not',
      '$elemMatch',
      '$bogus',
    );
    const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      leaf: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })),
      ops: fc.dictionary(operator, fc.oneof(tie('leaf'), tie('ops')), { maxKeys: 2 }),
      node: fc.oneof(tie('leaf'), tie('ops')),
    })).node;
    const query = fc.oneof(
      fc.dictionary(key, value, { maxKeys: 3 }),
      fc.record({ $or: fc.array(fc.dictionary(key, value, { maxKeys: 2 }), { maxLength: 3 }) }),
      fc.anything(),
    );

    describe('compileFilter properties', () => {
      it('never fails with anything but an InvalidInputError, and never widens the rule', async () => {
        const allowed = new Set(['a', 'b']);
        await fc.assert(
          fc.asyncProperty(query, fc.string({ maxLength: 12 }), async (q, sort) => {
            try {
              const rows = await store.findMany(
                { appId: 'app', entity: 'T', query: q, rule: { id: { $in: ['a', 'b'] } } },
                { sort, limit: 10, skip: 0 },
              );
              expect(rows.every((row) => allowed.has(row.id))).toBe(true);
            } catch (error) {
              if (!(error instanceof InvalidInputError)) throw error;
            }
          }),
          { numRuns: 300 },
        );
      });
    });
  });
}

describe('compileSort', () => {
  it('orders NOT NULL stamp columns without a NULLS clause, so the created_date index serves pages', () => {
    const params = new SqlParams();
    expect(compileSort('-created_date', params)).toBe('entity_records.created_date DESC, id ASC');
    expect(compileSort(undefined, params)).toBe('entity_records.created_date DESC, id ASC');
    expect(compileSort('created_by', params)).toBe('created_by ASC NULLS FIRST, id ASC');
  });
});
