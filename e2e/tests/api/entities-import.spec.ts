import { expect, test } from '../../support/test';
import { createUser, failure, serviceClient, uniqueEmail, userClient } from '../../support/auth-helpers';
import { entityOf, postOversized, startEntitiesServer } from '../../support/entities-helpers';
import type { RunningServer } from '../../support/server-process';

// importEntities through the official SDK: multipart `file`, CSV (coerced by the schema) or a JSON array,
// all or nothing with a per-row report, the create rule and field write rules, and the limits.
const appId = 'queen-solana';
type Row = Record<string, unknown> & { id: string };
type Report = { errors: { row: number; field: string | null; message: string }[]; error_count: number };

let server: RunningServer;

test.beforeAll(async () => {
  server = await startEntitiesServer();
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

const csv = (name: string, text: string) => new File([text], name, { type: 'text/csv' });

test('a CSV import coerces values by the schema and creates every row', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `imp${Date.now()}`;
  const text =
    'name,title,priority,completed,tags,meta,id,created_date\n' +
    `${batch},"first, with comma",3,true,"[""a"",""b""]","{""score"": 1.5}",ignored-id,2020-01-01\n` +
    `${batch},second,,FALSE,,,,\n`;
  const result = (await todos.importEntities(csv('todos.csv', text))) as {
    status: string;
    details: string;
    output: Row[];
  };
  expect(result.status).toBe('success');
  expect(result.details).toBe('Imported 2 records');
  expect(result.output).toHaveLength(2);
  const rows = (await todos.filter({ name: batch }, 'title')) as Row[];
  expect(rows.map((row) => [row.title, row.priority, row.completed, row.tags, row.meta, row.active])).toEqual(
    [
      ['first, with comma', 3, true, ['a', 'b'], { score: 1.5 }, true],
      ['second', undefined, false, undefined, undefined, true],
    ],
  );
  expect(rows.every((row) => row.id !== 'ignored-id' && row.created_date !== '2020-01-01')).toBe(true);
});

test('a JSON array imports too', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `impj${Date.now()}`;
  const file = new File(
    [
      JSON.stringify([
        { name: batch, priority: 2 },
        { name: batch, tags: ['x'] },
      ]),
    ],
    'todos.json',
    {
      type: 'application/json',
    },
  );
  const result = (await todos.importEntities(file)) as { status: string; output: Row[] };
  expect(result.status).toBe('success');
  expect(await todos.count({ name: batch })).toBe(2);
});

test('an import of more than 1000 records answers their ids, not every record again', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `impmany${Date.now()}`;
  const lines = Array.from({ length: 1001 }, (_, i) => `${batch},${(i % 5) + 1},open`);
  const result = (await todos.importEntities(
    csv('many.csv', `name,priority,status\n${lines.join('\n')}\n`),
  )) as {
    status: string;
    details: string;
    output: Row[];
  };
  expect(result.details).toBe('Imported 1001 records');
  expect(result.output).toHaveLength(1001);
  expect(result.output.every((row) => Object.keys(row).join() === 'id')).toBe(true);
  expect(await todos.count({ name: batch })).toBe(1001);
});

test('one bad row refuses the whole import with a report naming the row and field', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `impbad${Date.now()}`;
  const text = `name,priority,status\n${batch},1,open\n${batch},9,open\n${batch},2,nope\n${batch},x,done\n`;
  const error = await failure(todos.importEntities(csv('bad.csv', text)));
  expect(error.status).toBe(422);
  const report = error.data as Report;
  expect(report.error_count).toBe(3);
  expect(report.errors.map((problem) => [problem.row, problem.field])).toEqual([
    [2, 'priority'],
    [3, 'status'],
    [4, 'priority'],
  ]);
  expect(error.message).toContain('row 2');
  expect(await todos.count({ name: batch })).toBe(0);
});

test('unknown fields are refused; unreadable CSV, missing file part and too many rows are 400', async () => {
  const todos = entityOf(serviceClient(server).asServiceRole, 'Todo');
  const batch = `impunk${Date.now()}`;
  const unknown = await failure(todos.importEntities(csv('u.csv', `name,colour\n${batch},red\n`)));
  expect(unknown.status).toBe(422);
  expect((unknown.data as Report).errors).toEqual([
    { row: 0, field: 'colour', message: 'Unknown field: Todo has no field "colour"' },
  ]);
  const unknownJson = await failure(
    todos.importEntities(new File([JSON.stringify([{ name: batch }, { name: batch, x: 1 }])], 'u.json')),
  );
  expect((unknownJson.data as Report).errors.map((problem) => [problem.row, problem.field])).toEqual([
    [2, 'x'],
  ]);
  expect(await todos.count({ name: batch })).toBe(0);

  const broken = await failure(todos.importEntities(csv('b.csv', `name,title\n${batch},"open quote\n`)));
  expect(broken.status).toBe(400);
  expect(broken.message).toContain('not valid CSV');
  const ragged = await failure(todos.importEntities(csv('r.csv', `name,title\n${batch},a,extra\n`)));
  expect(ragged.status).toBe(400);
  const badJson = await failure(todos.importEntities(new File(['[{"name":'], 'b.json')));
  expect(badJson.status).toBe(400);

  const tooMany = `name\n${'x\n'.repeat(100_001)}`;
  const rows = await failure(todos.importEntities(csv('many.csv', tooMany)));
  expect(rows.status).toBe(400);
  expect(rows.message).toContain('at most 100000 rows');

  const noFile = await fetch(`${server.url}/api/apps/${appId}/entities/Todo/import`, {
    method: 'POST',
    body: (() => {
      const form = new FormData();
      form.append('other', 'x');
      return form;
    })(),
  });
  expect(noFile.status).toBe(400);
  const json = await fetch(`${server.url}/api/apps/${appId}/entities/Todo/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '[]',
  });
  expect(json.status).toBe(400);
  expect(await todos.count({ name: batch })).toBe(0);
});

test('an import over the file size limit is 413', async () => {
  const answer = await postOversized(
    `${server.url}/api/apps/${appId}/entities/Todo/import`,
    33 * 1024 * 1024,
  );
  expect(answer.status).toBe(413);
  expect(answer.text).toContain('32 MB');
});

test('rules: the create rule and field write rules are checked per row; no create right is 403', async () => {
  const owner = await createUser(server, { email: uniqueEmail('imp-owner') });
  const notes = entityOf(userClient(server, owner.token), 'Note');
  const batch = `impn${Date.now()}`;
  const ok = (await notes.importEntities(csv('n.csv', `text,n\n${batch},1\n${batch},2\n`))) as {
    output: Row[];
  };
  expect(ok.output.map((row) => [row.text, row.n, row.created_by])).toEqual([
    [batch, 1, owner.user.email],
    [batch, 2, owner.user.email],
  ]);
  const pinned = await failure(
    notes.importEntities(csv('p.csv', `text,pinned\n${batch}-p,false\n${batch}-p,true\n`)),
  );
  expect(pinned.status).toBe(422);
  expect((pinned.data as Report).errors.map((problem) => [problem.row, problem.field])).toEqual([
    [1, 'pinned'],
    [2, 'pinned'],
  ]);
  expect(await notes.count({ text: `${batch}-p` })).toBe(0);

  const anonymous = await failure(
    entityOf(userClient(server), 'Note').importEntities(csv('a.csv', `text\n${batch}\n`)),
  );
  expect(anonymous.status).toBe(403);
  const secret = await failure(
    entityOf(userClient(server, owner.token), 'Secret').importEntities(csv('s.csv', 'label\nx\n')),
  );
  expect(secret.status).toBe(403);
  expect(await notes.count({ text: batch })).toBe(2);
});
