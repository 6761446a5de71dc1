import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '../../support/test';
import { AUTH_ENV, failure, signUp, uniqueEmail, userClient } from '../../support/auth-helpers';
import { runCli } from '../../support/cli-process';
import { entityOf } from '../../support/entities-helpers';
import { startServer } from '../../support/server-process';

// `npm run cli -- entities infer --app PATH` (issue 19) on a copy of a small app whose repository declares
// Project but not the Task and Comment its code uses: it writes the two missing schemas (fields and types
// from the code, signed-in-only rules), keeps the declared one, keeps its own files on a second run, and
// a server started on the result accepts a signed-in user's writes and refuses anonymous ones.
const FIXTURE = resolve(import.meta.dirname, '../../fixtures/inferred-app');

let appDir: string;

test.beforeEach(async () => {
  appDir = await mkdtemp(join(tmpdir(), 'queen-infer-e2e-'));
  await cp(FIXTURE, appDir, { recursive: true });
});

test.afterEach(async () => {
  await rm(appDir, { recursive: true, force: true });
});

/** entityFile reads a written entity file: its comment lines, and its JSON without them and trailing commas. */
async function entityFile(name: string) {
  const text = await readFile(join(appDir, 'base44', 'entities', `${name}.jsonc`), 'utf8');
  const lines = text.split('\n');
  const json = lines
    .filter((line) => !line.startsWith('//'))
    .join('\n')
    .replace(/,(\s*[}\]])/g, '$1');
  return { text, comment: lines.filter((line) => line.startsWith('//')).join('\n'), json: JSON.parse(json) };
}

const infer = (...extra: string[]) => runCli(['entities', 'infer', '--app', appDir, ...extra], {});

test('writes the missing entity schemas with the fields the code uses, and keeps the declared one', async () => {
  const declared = await readFile(join(FIXTURE, 'base44', 'entities', 'Project.jsonc'), 'utf8');
  const run = await infer();
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^entity\s+fields\s+seen at$/m);
  expect(run.stdout).toMatch(/^Task\s+.*is_done:boolean.*base44\/functions\/weekly-digest\/entry\.ts:5/m);
  expect(run.stdout).toContain('wrote base44/entities/Comment.jsonc');
  expect(run.stdout).toContain('wrote base44/entities/Task.jsonc');
  expect(run.stdout).toContain('kept base44/entities/Project.jsonc');

  const task = await entityFile('Task');
  expect(task.json).toEqual({
    name: 'Task',
    type: 'object',
    properties: {
      // `due_date` has no date format: the form writes '' to it, which the format would refuse.
      due_date: { type: 'string' },
      estimate_hours: { type: 'number' },
      finished_at: { type: 'string', format: 'date-time' },
      is_done: { type: 'boolean' },
      priority: { type: 'number' },
      project_id: { type: 'string' },
      title: { type: 'string' },
    },
    rls: Object.fromEntries(
      ['create', 'read', 'update', 'delete'].map((op) => [op, { user_condition: { id: { $ne: '' } } }]),
    ),
  });
  expect(task.comment).toContain('Inferred by `npm run cli -- entities infer`');
  expect(task.comment).toContain('src/pages/TaskBoard.jsx');
  expect(task.comment).toContain('signed-in users only');

  const comment = await entityFile('Comment');
  expect(comment.json.properties).toEqual({
    author_email: { type: 'string', format: 'email' },
    body: { type: 'string' },
    likes_count: { type: 'number' },
    tags: { type: 'array', items: { type: 'string' } },
    task_id: { type: 'string' },
  });
  expect(await readFile(join(appDir, 'base44', 'entities', 'Project.jsonc'), 'utf8')).toBe(declared);

  // A second run writes nothing: its own files (edited or not) are kept as they are.
  const before = { task: task.text, comment: comment.text };
  const again = await infer();
  expect(again.code).toBe(0);
  expect(again.stdout).not.toContain('wrote ');
  expect(again.stdout).toContain('kept base44/entities/Task.jsonc');
  expect((await entityFile('Task')).text).toBe(before.task);
  expect((await entityFile('Comment')).text).toBe(before.comment);
});

test('--dry-run prints the table and writes nothing', async () => {
  const run = await infer('--dry-run');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^Comment\s+author_email:string\/email/m);
  expect(run.stdout).toContain('--dry-run: nothing written');
  await expect(readFile(join(appDir, 'base44', 'entities', 'Task.jsonc'))).rejects.toThrow();
});

test('a server on the inferred project lets signed-in users write and read, and refuses anonymous visitors', async () => {
  expect((await infer()).code).toBe(0);
  const server = await startServer({
    env: { ...AUTH_ENV, PROJECT_DIR: join(appDir, 'base44'), PUBLIC_URL: 'http://127.0.0.1' },
  });
  try {
    const { token } = await signUp(server, uniqueEmail('infer'));
    const tasks = entityOf(userClient(server, token), 'Task');
    const created = await tasks.create({
      title: 'Pack',
      due_date: '2026-12-01',
      is_done: false,
      priority: 2,
    });
    expect(await tasks.filter({ is_done: false })).toEqual([expect.objectContaining({ id: created.id })]);

    const anonymous = entityOf(userClient(server), 'Task');
    expect([401, 403]).toContain((await failure(anonymous.create({ title: 'sneak' }))).status);
    const seen = await anonymous.list().then(
      (rows: unknown[]) => rows,
      () => [],
    );
    expect(seen).toEqual([]);
  } finally {
    expect(await server.stop()).toBe(0);
  }
});

/**
 * TASK_BOARD is a hand-written build of the fixture's task board (its pattern, without React): the
 * signed-in visitor's token from localStorage, then list, create and finish tasks through the entity API.
 */
const TASK_BOARD = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tasks</title></head>
<body><main><h1>Tasks</h1><input aria-label="Title"><button id="add">Add</button><ul></ul></main>
<script type="module" src="/assets/board-3f9a.js"></script></body></html>`;
const TASK_BOARD_SCRIPT = `const token = localStorage.getItem('base44_access_token');
const call = (path, init = {}) =>
  fetch('/api/apps/queen-solana/entities/Task' + path, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
  }).then((response) => response.json());
const base44 = { entities: { Task: call } };
async function load() {
  const q = encodeURIComponent(JSON.stringify({ is_done: false }));
  const tasks = await base44.entities.Task('?q=' + q + '&sort=-due_date');
  document.querySelector('ul').replaceChildren(...tasks.map((task) => {
    const item = document.createElement('li');
    const done = document.createElement('button');
    done.textContent = task.title;
    done.onclick = async () => {
      const finished = { is_done: true, finished_at: new Date().toISOString() };
      await base44.entities.Task('/' + task.id, { method: 'PUT', body: JSON.stringify(finished) });
      await load();
    };
    item.append(done);
    return item;
  }));
}
document.querySelector('#add').onclick = async () => {
  const title = document.querySelector('input').value;
  const draft = { title, due_date: '', estimate_hours: 0, is_done: false };
  await base44.entities.Task('', { method: 'POST', body: JSON.stringify(draft) });
  await load();
};
load();
`;

test('npm start -- --app: the server infers the missing schemas into DATA_DIR, serves them, and a browser flow works', async ({
  page,
}) => {
  const dist = join(appDir, 'dist');
  await mkdir(dist);
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), TASK_BOARD);
  await writeFile(join(dist, 'assets/board-3f9a.js'), TASK_BOARD_SCRIPT);
  const env = {
    ...AUTH_ENV,
    APP_ID: 'queen-solana', // the SDK helpers' app
    PROJECT_DIR: join(appDir, 'base44'),
    SITE_DIST: dist,
    APP_SOURCE_DIR: appDir, // what `npm start -- --app` sets
    PUBLIC_URL: 'http://127.0.0.1',
  };
  const server = await startServer({ env });
  try {
    // Written under DATA_DIR, never into the app's repository; the operator is told, with the warning.
    expect(await readdir(join(server.dataDir, 'inferred', 'entities'))).toEqual([
      'Comment.jsonc',
      'Task.jsonc',
    ]);
    expect(await readdir(join(appDir, 'base44', 'entities'))).toEqual(['Project.jsonc']);
    expect(server.logs()).toContain('serving entities inferred from the app');
    expect(server.logs()).toContain('signed-in users only');

    const { token } = await signUp(server, uniqueEmail('infer-browser'));
    await page.goto(server.url);
    await page.evaluate((value) => localStorage.setItem('base44_access_token', value), token);
    await page.reload();
    await page.getByLabel('Title').fill('Pack the tent');
    await page.getByRole('button', { name: 'Add' }).click();
    const task = page.getByRole('button', { name: 'Pack the tent' });
    await expect(task).toBeVisible();
    await task.click(); // finished: it leaves the open tasks
    await expect(task).toBeHidden();
    const [stored] = (await entityOf(userClient(server, token), 'Task').list()) as Record<string, unknown>[];
    expect(stored).toMatchObject({ title: 'Pack the tent', is_done: true, due_date: '' });
    // Fields the inferred schema lacks are kept, but a record holds at most 100 of them, merged.
    const fields = (from: number) =>
      Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`extra_${from + i}`, i]));
    const tasks = entityOf(userClient(server, token), 'Task');
    expect(await tasks.update(String(stored?.id), fields(0))).toMatchObject({ extra_59: 59 });
    const grown = await failure(tasks.update(String(stored?.id), fields(60)));
    expect(grown.status).toBe(422);
    expect(grown.message).toContain('at most 100');
  } finally {
    expect(await server.stop()).toBe(0);
  }

  // INFER_ENTITIES=off: nothing inferred, so the entity the repository lacks answers 404.
  const off = await startServer({ env: { ...env, INFER_ENTITIES: 'off' } });
  try {
    const missing = await failure(entityOf(userClient(off), 'Task').list());
    expect(missing.status).toBe(404);
    expect(off.logs()).toContain('does not declare (Task)');
  } finally {
    expect(await off.stop()).toBe(0);
  }
});

test('an app repository without base44/ starts with every entity its code uses inferred', async () => {
  await rm(join(appDir, 'base44'), { recursive: true });
  const server = await startServer({
    env: {
      ...AUTH_ENV,
      PROJECT_DIR: join(appDir, 'base44'),
      APP_SOURCE_DIR: appDir,
      PUBLIC_URL: 'http://127.0.0.1',
    },
  });
  try {
    expect(await readdir(join(server.dataDir, 'inferred', 'entities'))).toEqual([
      'Comment.jsonc',
      'Project.jsonc',
      'Task.jsonc',
    ]);
    const { token } = await signUp(server, uniqueEmail('infer-bare'));
    const projects = entityOf(userClient(server, token), 'Project');
    await projects.create({ name: 'Camp' });
    expect(await projects.list('name')).toEqual([expect.objectContaining({ name: 'Camp' })]);
  } finally {
    expect(await server.stop()).toBe(0);
  }
});
