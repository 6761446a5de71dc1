import { expect, test } from '../../support/test';
import {
  apiScenarios,
  bearer,
  storedAfter,
  storedUnchanged,
  type ApiScenario,
} from '../../support/api-scenario';
import { onThisMachine, slowestAnswerDuring } from '../../support/responsiveness';
import { SERVICE_TOKEN, api, createUser, uniqueEmail } from '../../support/auth-helpers';
import { startEntitiesServer } from '../../support/entities-helpers';
import type { RunningServer } from '../../support/server-process';

// The entity security contract (issue 8 items 1a, 3, 10, 11, 16) on the fixture project: Todo is open,
// Note owner-only, Secret admin-only with `code` hidden from non-creators, Dossier open with nested
// hidden keys (`meta.note`, `meta.deep.pin`, `lines.[].cost`: only the creator sees them), User has
// custom fields. Each row gets fresh records (`Fixture`), sends one request as one caller, and checks the
// status, the message and then, as the service role, what is stored (e2e/support/api-scenario.ts).
const appId = 'queen-solana';
type CallerName = 'anonymous' | 'user' | 'other' | 'admin' | 'service';
type Row = Record<string, unknown> & { id: string };

/** Fixture is the records each scenario starts from (ids), created anew for every row. */
interface Fixture {
  todo: string;
  note: string;
  secret: string;
  dossier: string;
  userId: string;
  tag: string;
}
type Stored = 'todo' | 'note' | 'secret' | 'dossier';

/** Scenario is a row of the runner's table; `item` is the issue-8 item it covers (the title's prefix). */
interface Scenario extends ApiScenario<Fixture, CallerName> {
  item: string;
}

const q = (query: unknown) => `?q=${encodeURIComponent(JSON.stringify(query))}`;
const many = <T>(n: number, item: (i: number) => T) => Array.from({ length: n }, (_, i) => item(i));
const DOSSIER_LINES = [{ sku: 'a', cost: 20 }, { sku: 'b' }];
const HIDDEN_META = { label: 'L', note: 'n-secret', deep: { tag: 't', pin: 'p-secret' } };
const LONG_EMAIL = `a@${'a.'.repeat(20_000)}!`;

const SCENARIOS: readonly Scenario[] = [
  // 1a. $regex patterns that can blow up are refused with 400 before SQL, on every path that takes one.
  ...(
    [
      [
        'list',
        'anonymous',
        (f: Fixture) => `Todo${q({ title: { $regex: '(a{1,255}){1,255}' }, description: f.tag })}`,
        'may not exceed 16',
      ],
      ['User list', 'user', () => `User${q({ email: { $regex: '(a+)+$' } })}`, 'nested quantifiers'],
      [
        'count, $not',
        'anonymous',
        () => `Todo/count${q({ title: { $not: { $regex: '(a|aa)*b' } } })}`,
        'start alike',
      ],
      [
        'v2 list, $elemMatch',
        'anonymous',
        () => `Todo/v2/list${q({ tags: { $elemMatch: { $regex: 'x{1000}' } } })}`,
        'may not exceed 16',
      ],
      [
        'long pattern',
        'anonymous',
        () => `Todo${q({ title: { $regex: 'a'.repeat(300) } })}`,
        'longer than 256',
      ],
      ['backreference', 'anonymous', () => `Todo${q({ title: { $regex: '(a)\\1' } })}`, 'backreferences'],
      [
        '$options',
        'anonymous',
        () => `Todo${q({ title: { $regex: 'a', $options: 'x' } })}`,
        '$options supports only',
      ],
      [
        'caseless huge range',
        'anonymous',
        () => `Todo${q({ title: { $regex: '[\\u0100-\\uffff]', $options: 'i' } })}`,
        'span more than',
      ],
    ] as const
  ).map(([what, caller, path, message]): Scenario => ({
    item: '1a',
    name: `$regex that could blow up: ${what}`,
    caller,
    request: (f) => ({ method: 'GET', path: path(f) }),
    status: 400,
    message,
  })),
  {
    item: '1a',
    name: '$regex that could blow up: aggregate',
    caller: 'anonymous',
    request: () => ({
      method: 'POST',
      path: 'Todo/aggregate',
      body: { query: { title: { $regex: '(.*)*' } }, groupBy: 'status' },
    }),
    status: 400,
    message: 'nested quantifiers',
  },
  {
    item: '1a',
    name: '$regex that could blow up: update-many writes nothing',
    caller: 'user',
    request: (f) => ({
      method: 'PATCH',
      path: 'Todo/update-many',
      body: {
        query: { description: f.tag, title: { $regex: '(\\w+\\s?)+$' } },
        data: { $set: { status: 'done' } },
      },
    }),
    status: 400,
    message: 'nested quantifiers',
    stored: unchanged('todo'),
  },
  {
    item: '1a',
    name: '$regex that could blow up: delete-many deletes nothing',
    caller: 'user',
    request: (f) => ({
      method: 'DELETE',
      path: 'Todo',
      body: { description: f.tag, title: { $regex: '(a|a)+' } },
    }),
    status: 400,
    message: 'start alike',
    stored: unchanged('todo'),
  },
  {
    item: '1a',
    name: 'an ordinary $regex still works',
    caller: 'anonymous',
    request: (f) => ({
      method: 'GET',
      path: `Todo/count${q({ description: f.tag, title: { $regex: '^sec-T', $options: 'i' } })}`,
    }),
    status: 200,
  },

  // 3. Query cost bound: conditions, depth and distinct patterns, each named in the 400.
  {
    item: '3',
    name: 'more than 200 conditions',
    caller: 'anonymous',
    request: () => ({ method: 'GET', path: `Todo${q({ $or: many(201, (i) => ({ priority: i })) })}` }),
    status: 400,
    message: 'more than 200 conditions',
  },
  {
    item: '3',
    name: 'more than 20 distinct $regex patterns',
    caller: 'anonymous',
    request: () => ({
      method: 'GET',
      path: `Todo/count${q({ $or: many(21, (i) => ({ title: { $regex: `^t${i}` } })) })}`,
    }),
    status: 400,
    message: 'more than 20 distinct $regex patterns',
  },
  {
    item: '3',
    name: 'nesting deeper than 12',
    caller: 'anonymous',
    request: () => ({
      method: 'GET',
      path: `Todo${q(many(13, () => 0).reduce<unknown>((inner) => ({ $and: [inner] }), { priority: 1 }))}`,
    }),
    status: 400,
    message: 'nesting deeper than 12',
  },
  // 3. The access rule is decided before the body is validated.
  {
    item: '3',
    name: 'create without the create right: 403 before validation',
    caller: 'anonymous',
    request: () => ({ method: 'POST', path: 'Note', body: { text: 5 } }),
    status: 403,
  },
  {
    item: '3',
    name: 'create on an admin-only entity by a user: 403 before validation',
    caller: 'user',
    request: () => ({ method: 'POST', path: 'Secret', body: { label: 5, code: 'x'.repeat(40_000) } }),
    status: 403,
  },
  {
    item: '3',
    name: "update of another user's note: 404 before validation",
    caller: 'other',
    request: (f) => ({ method: 'PUT', path: `Note/${f.note}`, body: { text: 5 } }),
    status: 404,
    stored: unchanged('note'),
  },
  {
    item: '3',
    name: 'update without any update right: 404 before validation',
    caller: 'anonymous',
    request: (f) => ({ method: 'PUT', path: `Note/${f.note}`, body: { text: 5 } }),
    status: 404,
    stored: unchanged('note'),
  },
  {
    item: '3',
    name: 'a 40k-character email is refused by its length, nothing stored',
    caller: 'anonymous',
    request: (f) => ({ method: 'POST', path: 'Todo', body: { title: `${f.tag}-mail`, contact: LONG_EMAIL } }),
    status: 422,
    message: 'at most 254 characters',
    stored: countIs('Todo', (f) => ({ title: `${f.tag}-mail` }), 0),
  },

  // 10. upsert matches only rows the caller may read; a hidden key field is refused.
  {
    item: '10',
    name: "upsert keyed on text matching another user's unreadable note creates the caller's own",
    caller: 'other',
    request: (f) => ({
      method: 'POST',
      path: 'Note/upsert',
      body: { records: [{ text: `${f.tag}-note`, n: 7 }], key: 'text' },
    }),
    status: 200,
    stored: countIs('Note', (f) => ({ text: `${f.tag}-note` }), 2),
  },
  {
    item: '10',
    name: "the owner's note stays as it was after the other user's upsert",
    caller: 'other',
    request: (f) => ({
      method: 'POST',
      path: 'Note/upsert',
      body: { records: [{ text: `${f.tag}-note`, n: 7 }], key: 'text' },
    }),
    status: 200,
    stored: unchanged('note'),
  },
  {
    item: '10',
    name: 'upsert by the owner on a readable match updates it',
    caller: 'user',
    request: (f) => ({
      method: 'POST',
      path: 'Note/upsert',
      body: { records: [{ text: `${f.tag}-note`, n: 9 }], key: 'text' },
    }),
    status: 200,
    stored: recordMatches('note', (f) => ({ text: `${f.tag}-note`, n: 9 })),
  },
  {
    item: '10',
    name: 'upsert keyed on a field hidden from the caller is refused',
    caller: 'admin',
    request: (f) => ({
      method: 'POST',
      path: 'Secret/upsert',
      body: { records: [{ label: 'x', code: `${f.tag}-code` }], key: 'code' },
    }),
    status: 403,
    message: 'read rule hides it',
    stored: unchanged('secret'),
  },

  // 11. Writes never drop what the writer cannot see.
  ...(
    [
      ['$push', { $push: { lines: { sku: 'c' } } }, [...DOSSIER_LINES, { sku: 'c' }]],
      [
        '$addToSet',
        { $addToSet: { lines: { $each: [{ sku: 'a' }, { sku: 'd' }] } } },
        [...DOSSIER_LINES, { sku: 'd' }],
      ],
      ['$pull', { $pull: { lines: { sku: 'b' } } }, [{ sku: 'a', cost: 20 }]],
    ] as const
  ).map(([op, data, lines]): Scenario => ({
    item: '11',
    name: `${op} on an array with hidden element keys keeps them`,
    caller: 'other',
    request: (f) => ({
      method: 'PATCH',
      path: 'Dossier/update-many',
      body: { query: { id: f.dossier }, data },
    }),
    status: 200,
    stored: recordMatches('dossier', () => ({ lines })),
  })),
  {
    item: '11',
    name: '$set replacing an array with hidden element keys is refused',
    caller: 'other',
    request: (f) => ({
      method: 'PATCH',
      path: 'Dossier/update-many',
      body: { query: { id: f.dossier }, data: { $set: { lines: [{ sku: 'z' }] } } },
    }),
    status: 403,
    message: 'hidden from you',
    stored: unchanged('dossier'),
  },
  {
    item: '11',
    name: '$set of a parent object keeps its hidden children',
    caller: 'other',
    request: (f) => ({
      method: 'PATCH',
      path: 'Dossier/update-many',
      body: { query: { id: f.dossier }, data: { $set: { meta: { label: 'M2', deep: {} } } } },
    }),
    status: 200,
    stored: recordMatches('dossier', () => ({
      meta: { label: 'M2', note: 'n-secret', deep: { pin: 'p-secret' } },
    })),
  },
  {
    item: '11',
    name: '$rename of a value holding hidden keys is refused',
    caller: 'other',
    request: (f) => ({
      method: 'PATCH',
      path: 'Dossier/update-many',
      body: { query: { id: f.dossier }, data: { $rename: { meta: 'other' } } },
    }),
    status: 403,
    message: 'hidden from you',
    stored: unchanged('dossier'),
  },
  {
    item: '11',
    name: 'update writing back the record as read keeps every hidden key',
    caller: 'other',
    request: (f) => ({
      method: 'PUT',
      path: `Dossier/${f.dossier}`,
      body: {
        title: `${f.tag}-renamed`,
        meta: { label: 'L', deep: { tag: 't' } },
        lines: [{ sku: 'a' }, { sku: 'b' }],
      },
    }),
    status: 200,
    stored: recordMatches('dossier', (f) => ({
      title: `${f.tag}-renamed`,
      meta: HIDDEN_META,
      lines: DOSSIER_LINES,
    })),
  },
  {
    item: '11',
    name: 'update replacing an array with hidden element keys is refused',
    caller: 'other',
    request: (f) => ({ method: 'PUT', path: `Dossier/${f.dossier}`, body: { lines: [{ sku: 'x' }] } }),
    status: 403,
    message: 'hidden from you',
    stored: unchanged('dossier'),
  },
  {
    item: '11',
    name: 'bulk update of a parent object keeps its hidden children',
    caller: 'other',
    request: (f) => ({
      method: 'PUT',
      path: 'Dossier/bulk',
      body: [{ id: f.dossier, meta: { label: 'B' } }],
    }),
    status: 200,
    stored: recordMatches('dossier', () => ({
      meta: { label: 'B', note: 'n-secret', deep: { pin: 'p-secret' } },
    })),
  },
  {
    item: '11',
    name: 'the creator, who sees every key, may replace the array',
    caller: 'user',
    request: (f) => ({
      method: 'PATCH',
      path: 'Dossier/update-many',
      body: { query: { id: f.dossier }, data: { $set: { lines: [] } } },
    }),
    status: 200,
    stored: recordMatches('dossier', () => ({ lines: [] })),
  },

  // 11. Writes never erase or overwrite values the writer cannot see: an operator on a hidden path, or a
  // write removing or replacing a value that holds hidden keys, is a 403 naming the path.
  ...(
    [
      ['$unset of a parent holding hidden keys', { $unset: { meta: '' } }, 'meta'],
      ['$unset of a nested parent holding a hidden key', { $unset: { 'meta.deep': '' } }, 'meta.deep'],
      ['$unset of a hidden key', { $unset: { 'meta.note': '' } }, 'meta.note'],
      ['$unset of an array with hidden element keys', { $unset: { lines: '' } }, 'lines'],
      ['$pull of an element holding a hidden key', { $pull: { lines: { sku: 'a' } } }, 'lines'],
      [
        '$pull $in of an element holding a hidden key',
        { $pull: { lines: { $in: [{ sku: 'a' }] } } },
        'lines',
      ],
      ['$rename onto a hidden key', { $rename: { 'meta.label': 'meta.note' } }, 'meta.note'],
      ['$rename of a hidden key', { $rename: { 'meta.note': 'title' } }, 'meta.note'],
      ['$rename onto a parent holding hidden keys', { $rename: { title: 'meta' } }, 'meta'],
      ['$inc of a hidden key (none stored)', { $inc: { 'meta.rank': 1 } }, 'meta.rank'],
      ['$min of a hidden key', { $min: { 'meta.note': 'a' } }, 'meta.note'],
      ['$max of a hidden key', { $max: { 'meta.note': 'zzz' } }, 'meta.note'],
      ['$currentDate of a hidden key', { $currentDate: { 'meta.deep.pin': true } }, 'meta.deep.pin'],
      ['$currentDate of a parent holding hidden keys', { $currentDate: { meta: true } }, 'meta'],
      ['$set of a hidden key', { $set: { 'meta.note': 'x' } }, 'meta.note'],
      ['$set of a parent to null', { $set: { meta: null } }, 'meta'],
      [
        '$push of an element naming a hidden key',
        { $push: { lines: { sku: 'c', cost: 1 } } },
        'lines.2.cost',
      ],
    ] as const
  ).map(([what, data, path]): Scenario => ({
    item: '11',
    name: `${what} is refused`,
    caller: 'other',
    request: (f) => ({
      method: 'PATCH',
      path: 'Dossier/update-many',
      body: { query: { id: f.dossier }, data },
    }),
    status: 403,
    message: `${path}: `,
    stored: unchanged('dossier'),
  })),
  {
    item: '11',
    name: 'update setting a parent holding hidden keys to null is refused',
    caller: 'other',
    request: (f) => ({ method: 'PUT', path: `Dossier/${f.dossier}`, body: { meta: null } }),
    status: 403,
    message: 'replace meta: it holds fields hidden from you',
    stored: unchanged('dossier'),
  },
  {
    item: '11',
    name: 'bulk update setting a parent holding hidden keys to null is refused',
    caller: 'other',
    request: (f) => ({ method: 'PUT', path: 'Dossier/bulk', body: [{ id: f.dossier, meta: null }] }),
    status: 403,
    message: 'replace meta: it holds fields hidden from you',
    stored: unchanged('dossier'),
  },
  {
    item: '11',
    name: 'update naming a hidden key is refused',
    caller: 'other',
    request: (f) => ({
      method: 'PUT',
      path: `Dossier/${f.dossier}`,
      body: { meta: { label: 'L', note: 'overwritten' } },
    }),
    status: 403,
    message: 'meta.note: the field is hidden from you',
    stored: unchanged('dossier'),
  },
  {
    item: '11',
    name: 'the creator may pull an element holding a hidden key',
    caller: 'user',
    request: (f) => ({
      method: 'PATCH',
      path: 'Dossier/update-many',
      body: { query: { id: f.dossier }, data: { $pull: { lines: { sku: 'a', cost: 20 } } } },
    }),
    status: 200,
    stored: recordMatches('dossier', () => ({ lines: [{ sku: 'b' }] })),
  },
  {
    item: '11',
    name: 'the creator may rename onto a key hidden from others',
    caller: 'user',
    request: (f) => ({
      method: 'PATCH',
      path: 'Dossier/update-many',
      body: { query: { id: f.dossier }, data: { $rename: { 'meta.label': 'meta.note' } } },
    }),
    status: 200,
    stored: recordMatches('dossier', () => ({ meta: { note: 'L' } })),
  },
  {
    item: '11',
    name: 'the service role may replace an array with hidden element keys',
    caller: 'service',
    request: (f) => ({ method: 'PUT', path: `Dossier/${f.dossier}`, body: { lines: [{ sku: 'z' }] } }),
    status: 200,
    stored: recordMatches('dossier', () => ({ lines: [{ sku: 'z' }] })),
  },

  // 3. Array update operators take bounded operands (the probe's 20,000 and 8,000 are refused up front).
  {
    item: '3',
    name: '$addToSet with $each of 20,000 items',
    caller: 'user',
    request: (f) => ({
      method: 'PATCH',
      path: 'Todo/update-many',
      body: { query: { description: f.tag }, data: { $addToSet: { tags: { $each: many(20_000, String) } } } },
    }),
    status: 400,
    message: 'at most 1000 items',
    stored: unchanged('todo'),
  },
  {
    item: '3',
    name: '$pull with $in of 8,000 items',
    caller: 'user',
    request: (f) => ({
      method: 'PATCH',
      path: 'Todo/update-many',
      body: { query: { description: f.tag }, data: { $pull: { tags: { $in: many(8000, (i) => `x${i}`) } } } },
    }),
    status: 400,
    message: 'at most 1000 items',
    stored: unchanged('todo'),
  },

  // 16. Custom user fields are capped: 64 fields, 64 KB.
  {
    item: '16',
    name: 'updateMe with 65 custom fields',
    caller: 'user',
    request: () => ({
      method: 'PUT',
      path: 'User/me',
      body: Object.fromEntries(many(65, (i) => [`f${i}`, i])),
    }),
    status: 400,
    message: 'at most 64 custom fields',
    stored: customFieldCount(0),
  },
  {
    item: '16',
    name: 'updateMe with 70 KB of custom fields',
    caller: 'user',
    request: () => ({ method: 'PUT', path: 'User/me', body: { bio: 'x'.repeat(70_000) } }),
    status: 400,
    message: 'at most 64 KB',
    stored: customFieldCount(0),
  },
  {
    item: '16',
    name: 'User entity update with 65 custom fields',
    caller: 'user',
    request: (f) => ({
      method: 'PUT',
      path: `User/${f.userId}`,
      body: Object.fromEntries(many(65, (i) => [`f${i}`, i])),
    }),
    status: 400,
    message: 'at most 64 custom fields',
    stored: customFieldCount(0),
  },
  {
    item: '16',
    name: 'updateMe within the caps',
    caller: 'user',
    request: () => ({ method: 'PUT', path: 'User/me', body: { nickname: 'ok', f1: 1 } }),
    status: 200,
    stored: customFieldCount(2),
  },
];

let server: RunningServer;
const tokens: Record<CallerName, string | undefined> = {
  anonymous: undefined,
  user: undefined,
  other: undefined,
  admin: undefined,
  service: SERVICE_TOKEN,
};

test.beforeAll(async () => {
  server = await startEntitiesServer();
  for (const [name, role] of [
    ['other', 'user'],
    ['admin', 'admin'],
  ] as const) {
    tokens[name] = (await createUser(server, { email: uniqueEmail(`sec-${name}`), role })).token;
  }
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

const entities = (path: string) => `/api/apps/${appId}/entities/${path}`;

async function call(caller: CallerName, method: string, path: string, body?: unknown) {
  const token = tokens[caller];
  return api(server, entities(path), {
    method,
    ...(body === undefined ? {} : { body }),
    ...(token ? { token } : {}),
  });
}

async function ok(caller: CallerName, method: string, path: string, body?: unknown): Promise<Row> {
  const answer = await call(caller, method, path, body);
  if (answer.status !== 200 && answer.status !== 201) {
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  }
  return answer.json as Row;
}

/** fixture makes a fresh user (the row's `user`) and fresh records, and returns their ids. */
async function fixture(): Promise<Fixture> {
  const { token, user } = await createUser(server, { email: uniqueEmail('sec-user') });
  tokens.user = token;
  const tag = `sec-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  // `description` scopes Todo queries to this row's record (the seed and other rows share Todo).
  const todo = await ok('anonymous', 'POST', 'Todo', {
    title: `sec-T-${tag}`,
    tags: [tag],
    description: tag,
  });
  const note = await ok('user', 'POST', 'Note', { text: `${tag}-note`, n: 1 });
  const secret = await ok('service', 'POST', 'Secret', { label: tag, code: `${tag}-code` });
  const dossier = await ok('user', 'POST', 'Dossier', {
    title: tag,
    meta: HIDDEN_META,
    lines: DOSSIER_LINES,
  });
  return { todo: todo.id, note: note.id, secret: secret.id, dossier: dossier.id, userId: user.id, tag };
}

async function stored(record: Stored, f: Fixture): Promise<Row> {
  const entity = { todo: 'Todo', note: 'Note', secret: 'Secret', dossier: 'Dossier' }[record];
  return ok('service', 'GET', `${entity}/${f[record]}`);
}

const errorText = (json: Record<string, unknown>) => String(json.message);

/** unchanged: the record reads (as the service role) the same after the request as before it. */
function unchanged(record: Stored) {
  return storedUnchanged((f: Fixture) => stored(record, f));
}

/** recordMatches: afterwards the record holds (at least) these values. */
function recordMatches(record: Stored, matches: (f: Fixture) => Record<string, unknown>) {
  return storedAfter(async (f: Fixture) => expect(await stored(record, f)).toMatchObject(matches(f)));
}

/** countIs: afterwards `count` records of entity match the query. */
function countIs(entity: string, query: (f: Fixture) => Record<string, unknown>, count: number) {
  return storedAfter(async (f: Fixture) => {
    const counted = await ok('service', 'GET', `${entity}/count${q(query(f))}`);
    expect(counted.count).toBe(count);
  });
}

const BUILT_IN_USER_FIELDS = [
  'id',
  'email',
  'full_name',
  'role',
  'is_verified',
  'disabled',
  'app_id',
  'created_date',
  'updated_date',
];

/** customFieldCount: afterwards the row's user holds `keys` custom fields. */
function customFieldCount(keys: number) {
  return storedAfter(async () => {
    const me = await ok('user', 'GET', 'User/me');
    expect(Object.keys(me).filter((key) => !BUILT_IN_USER_FIELDS.includes(key))).toHaveLength(keys);
  });
}

apiScenarios(
  SCENARIOS.map((scenario) => ({ ...scenario, name: `[${scenario.item}] ${scenario.name}` })),
  {
    baseUrl: () => `${server.url}${entities('')}`,
    headersFor: (caller) => bearer(tokens[caller]),
    setUp: fixture,
  },
);

// Attacks about time: while a burst runs, /healthz keeps answering within a generous bound.
const HEALTH_BOUND_MS = 1500;

/** whileProbing runs attack and polls /healthz until it settles; it returns the slowest answer in ms. */
const whileProbing = (attack: Promise<unknown>) => slowestAnswerDuring(server.url, attack);

test('[3] a burst of 40k-character email values is refused fast: /healthz keeps answering, nothing stored', async () => {
  const title = `sec-mail-burst-${Date.now()}`;
  const attack = Promise.all(
    many(20, () => call('anonymous', 'POST', 'Todo', { title, contact: LONG_EMAIL })),
  );
  const slowest = await whileProbing(attack);
  expect((await attack).map((answer) => answer.status)).toEqual(many(20, () => 422));
  expect(slowest).toBeLessThan(onThisMachine(HEALTH_BOUND_MS));
  expect((await ok('service', 'GET', `Todo/count${q({ title })}`)).count).toBe(0);
});

test('[3] a burst of 6 KB $or queries of 120 distinct regexes over 1,200 rows: 400, /healthz answers, data unchanged', async () => {
  const batch = `sec-rows-${Date.now()}`;
  for (let start = 0; start < 1200; start += 600) {
    await ok(
      'service',
      'POST',
      'Todo/bulk',
      many(600, (i) => ({ title: `row ${start + i} ${'abc '.repeat(8)}`, description: batch })),
    );
  }
  const query = {
    description: batch,
    $or: many(120, (i) => ({ title: { $regex: `^row ${i} (abc )+(xyz|qrs)[0-9]*$` } })),
  };
  expect(JSON.stringify(query).length).toBeGreaterThan(6000);
  const attack = Promise.all(many(10, () => call('anonymous', 'GET', `Todo${q(query)}`)));
  const slowest = await whileProbing(attack);
  const answers = await attack;
  expect(answers.map((answer) => answer.status)).toEqual(many(10, () => 400));
  expect(errorText(answers[0]?.json ?? {})).toContain('more than 20 distinct $regex patterns');
  expect(slowest).toBeLessThan(onThisMachine(HEALTH_BOUND_MS));
  expect((await ok('service', 'GET', `Todo/count${q({ description: batch })}`)).count).toBe(1200);
});

test('[1a] after the wedge pattern the next JSONB query still answers, and so does /healthz', async () => {
  const wedge = await call('anonymous', 'GET', `Todo${q({ title: { $regex: '(a{1,255}){1,255}' } })}`);
  expect(wedge.status).toBe(400);
  const next = call('anonymous', 'GET', `Todo${q({ meta: { $exists: false } })}&limit=5`);
  expect(await whileProbing(next)).toBeLessThan(onThisMachine(HEALTH_BOUND_MS));
  expect((await next).status).toBe(200);
});

test('[3] $addToSet and $pull with huge operands: refused fast while /healthz answers', async () => {
  const tag = `sec-ats-${Date.now()}`;
  await ok('service', 'POST', 'Todo', { title: tag, description: tag, tags: many(8000, String) });
  const query = { title: tag };
  const attack = Promise.all([
    call('service', 'PATCH', 'Todo/update-many', {
      query,
      data: { $addToSet: { tags: { $each: many(20_000, String) } } },
    }),
    call('service', 'PATCH', 'Todo/update-many', {
      query,
      data: { $pull: { tags: { $in: many(8000, (i) => `x${i}`) } } },
    }),
  ]);
  const slowest = await whileProbing(attack);
  expect((await attack).map((answer) => answer.status)).toEqual([400, 400]);
  expect(slowest).toBeLessThan(onThisMachine(HEALTH_BOUND_MS));
  const [row] = (await ok('service', 'GET', `Todo${q(query)}`)) as unknown as Row[];
  expect(row?.tags).toHaveLength(8000);
});

test('[3] array operators within the operand caps over many large arrays: bounded work, /healthz answers', async () => {
  const tag = `sec-ats-rows-${Date.now()}`;
  for (let start = 0; start < 150; start += 25) {
    await ok(
      'service',
      'POST',
      'Todo/bulk',
      many(25, () => ({ title: tag, tags: many(2000, String) })),
    );
  }
  const query = { title: tag };
  const attack = Promise.all([
    call('service', 'PATCH', 'Todo/update-many', {
      query,
      data: { $addToSet: { tags: { $each: many(1000, (i) => `n${i}`) } } },
    }),
    call('service', 'PATCH', 'Todo/update-many', {
      query,
      data: { $pull: { tags: { $in: many(1000, String) } } },
    }),
  ]);
  const slowest = await whileProbing(attack);
  const answers = await attack;
  expect(answers.map((answer) => answer.status)).toEqual([400, 400]);
  expect(errorText(answers[0]?.json ?? {})).toContain('more than 200000 array elements');
  expect(slowest).toBeLessThan(onThisMachine(HEALTH_BOUND_MS));
  const counted = await ok('service', 'GET', `Todo/count${q({ title: tag, tags: 'n0' })}`);
  expect(counted.count).toBe(0);
});
