import { readFile } from 'node:fs/promises';
import type { Page, Route } from '@playwright/test';
import { expect, forThisFile, test } from '../../support/test';
import { api, createUser, PASSWORD, SERVICE_TOKEN, uniqueEmail } from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { consoleScreenshot } from '../../support/console-screenshot';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import type { RunningServer } from '../../support/server-process';

// The console's Data page, record side (issue 23): the record editor (a form from the schema, the raw JSON
// tab, the server's validation errors on the fields), delete and delete-selected, CSV export (formula
// cells neutralised) and CSV import through the import route with its per-row report. Each change is
// checked through the API, and each write in the audit log. The fixture project's Todo: priority is an
// integer from 1 to 5.

let server: RunningServer;
const admin = { email: '', token: '' };
const member = { email: '', token: '' };
const TODO = `/api/apps/${DEFAULT_APP_ID}/entities/Todo`;
type Todo = Record<string, unknown> & { id: string };

test.beforeAll(async ({ sharedEntitiesServer }) => {
  server = forThisFile(sharedEntitiesServer);
  admin.email = uniqueEmail('data-admin');
  admin.token = (await createUser(server, { email: admin.email, role: 'admin' })).token;
  member.email = uniqueEmail('data-member');
  member.token = (await createUser(server, { email: member.email })).token;
});

/** todosNamed reads, as the service role, the Todo records whose name is batch, oldest first. */
async function todosNamed(batch: string): Promise<Todo[]> {
  const q = encodeURIComponent(JSON.stringify({ name: batch }));
  const answer = await api(server, `${TODO}?q=${q}&sort=created_date`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  expect(answer.status).toBe(200);
  return answer.json as unknown as Todo[];
}

interface AuditRow {
  action: string;
  target: string;
  actor: { email?: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** auditRows are the audit log's rows about targets, oldest first. */
async function auditRows(targets: string[]): Promise<AuditRow[]> {
  const answer = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/audit-log?limit=500`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  expect(answer.status).toBe(200);
  const rows = (answer.json as { items: AuditRow[] }).items;
  return rows.filter((row) => targets.includes(row.target)).reverse();
}

async function createTodos(records: Record<string, unknown>[]): Promise<Todo[]> {
  const answer = await api(server, `${TODO}/bulk`, { token: SERVICE_TOKEN, body: records });
  expect(answer.status).toBe(201);
  return answer.json as unknown as Todo[];
}

async function openTodos(page: Page, email = admin.email) {
  await page.goto(`${server.url}/_/data?entity=Todo`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectNoAxeViolations(page: Page, label: string) {
  expect(await axeViolations(page), label).toEqual([]);
}

const toast = (page: Page, text: string) => page.getByRole('status').getByText(text);

test('an admin creates a record with the form, sees the server refusal on the field, edits it, edits its JSON and deletes it', async ({
  page,
}) => {
  const batch = `form${Date.now()}`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await openTodos(page);
  await expect(page.getByRole('heading', { name: 'Todo', level: 2 })).toBeVisible();

  await page.getByRole('button', { name: 'New record' }).click();
  const create = page.getByRole('dialog', { name: 'New Todo record' });
  await create.getByRole('textbox', { name: 'name', exact: true }).fill(batch);
  await create.getByRole('textbox', { name: 'title', exact: true }).fill('Made with the form');
  await create.getByRole('spinbutton', { name: 'priority' }).fill('9');
  await create.getByRole('combobox', { name: 'status' }).selectOption('doing');
  await create.getByRole('textbox', { name: 'tags' }).fill('red\nblue');
  await create.getByRole('spinbutton', { name: 'score' }).fill('2.5');
  await create.getByRole('button', { name: 'Save' }).click();
  // The server's 422 names the field: the message is on the priority input, which says it is invalid.
  const priority = create.getByRole('spinbutton', { name: 'priority' });
  await expect(priority).toHaveAttribute('aria-invalid', 'true');
  await expect(priority).toHaveAccessibleDescription('A whole number. Input should be ≤ 5');
  await expect(create.getByRole('alert')).toContainText('Error in field priority');
  expect(await todosNamed(batch)).toEqual([]);
  await expectNoAxeViolations(page, 'editor with a field error at 1440');
  await consoleScreenshot(page, 'data-record-editor');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page, 'editor with a field error at 390');
  await page.setViewportSize({ width: 1440, height: 900 });

  await priority.fill('3');
  await create.getByRole('button', { name: 'Save' }).click();
  await expect(create).toBeHidden();
  const [made] = await todosNamed(batch);
  expect(made).toMatchObject({
    title: 'Made with the form',
    priority: 3,
    status: 'doing',
    tags: ['red', 'blue'],
    meta: { score: 2.5 },
    active: true,
    completed: false,
  });
  const id = made?.id ?? '';
  await expect(toast(page, `Record ${id} created.`)).toBeVisible();

  // Edit through the form.
  await page.getByRole('button', { name: `Edit record ${id}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit Todo record ${id}` });
  await expect(edit.getByRole('textbox', { name: 'title', exact: true })).toHaveValue('Made with the form');
  await edit.getByRole('textbox', { name: 'title', exact: true }).fill('Edited with the form');
  await edit.getByRole('checkbox', { name: 'completed' }).check();
  // The list's refetch after the save answers late, as a busy server's would: the next Edit, opened
  // before it answers, must already start from what was saved (else it would save the old values back).
  const listRequests = /\/entities\/Todo\?/;
  const slowList = async (route: Route) => {
    if (route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 5_000));
    await route.continue().catch(() => undefined);
  };
  await page.route(listRequests, slowList);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(toast(page, `Record ${id} saved.`)).toBeVisible();
  expect((await todosNamed(batch))[0]).toMatchObject({
    title: 'Edited with the form',
    completed: true,
    priority: 3,
  });

  // Edit the raw JSON: CodeMirror, loaded when the tab opens; fields left out of the JSON are cleared.
  await page.getByRole('button', { name: `Edit record ${id}` }).click();
  await edit.getByRole('tab', { name: 'JSON' }).click();
  const code = edit.getByRole('textbox', { name: 'Record JSON' });
  await expect(code).toContainText('"Edited with the form"');
  await page.unroute(listRequests, slowList);
  await expectNoAxeViolations(page, 'JSON editor at 1440');
  await code.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(JSON.stringify({ name: batch, title: 'Edited as JSON', priority: 4 }));
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  const afterJson = (await todosNamed(batch))[0] ?? { id: '' };
  expect(afterJson).toMatchObject({ id, title: 'Edited as JSON', priority: 4 });
  expect(afterJson.tags ?? null).toBeNull();
  expect(afterJson.status ?? null).toBeNull();

  // Delete it, after a confirmation.
  await page.getByRole('button', { name: `Edit record ${id}` }).click();
  await edit.getByRole('button', { name: 'Delete record' }).click();
  await edit.getByRole('button', { name: 'Yes, delete record' }).click();
  await expect(edit).toBeHidden();
  await expect(toast(page, `Record ${id} deleted.`)).toBeVisible();
  expect(await todosNamed(batch)).toEqual([]);
  await expect(page.getByRole('button', { name: `Edit record ${id}` })).toHaveCount(0);

  // Each write is in the audit log as the admin's, with the fields before and after.
  const rows = await auditRows([`record:Todo/${id}`]);
  expect(rows.map((row) => [row.action, row.actor.email])).toEqual([
    ['record.create', admin.email],
    ['record.update', admin.email],
    ['record.update', admin.email],
    ['record.delete', admin.email],
  ]);
  expect(rows[0]?.after).toMatchObject({ title: 'Made with the form', priority: 3 });
  expect(rows[1]).toMatchObject({
    before: { title: 'Made with the form' },
    after: { title: 'Edited with the form', completed: true },
  });
  expect(rows[3]).toMatchObject({ before: { ids: [id] }, after: { deleted: 1 } });
});

test('delete-selected names the count and deletes the selection in one request', async ({ page }) => {
  const batch = `sel${Date.now()}`;
  const made = await createTodos([{ name: batch }, { name: batch }, { name: batch }, { name: batch }]);
  const chosen = made.slice(0, 3);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openTodos(page);
  await expect(page.getByRole('button', { name: 'Delete selected' })).toBeDisabled();
  for (const record of chosen)
    await page.getByRole('checkbox', { name: `Select record ${record.id}` }).check();
  const deletes: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'DELETE') deletes.push(request.url());
  });
  await page.getByRole('button', { name: 'Delete selected' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 3 records?' });
  await expect(confirm).toBeVisible();
  await expectNoAxeViolations(page, 'delete-selected confirmation');
  await confirm.getByRole('button', { name: 'Delete 3 records' }).click();
  await expect(toast(page, 'Deleted 3 records.')).toBeVisible();
  expect(deletes).toHaveLength(1);
  expect((await todosNamed(batch)).map((record) => record.id)).toEqual([made[3]?.id]);
  const [audited] = (await auditRows(['records:Todo'])).filter((row) => row.action === 'record.delete');
  expect(audited).toMatchObject({
    action: 'record.delete',
    actor: { email: admin.email },
    before: { ids: chosen.map((record) => record.id) },
    after: { deleted: 3 },
  });
});

test('Export CSV downloads every record with formula cells neutralised and RFC 4180 quoting', async ({
  page,
}) => {
  const batch = `exp${Date.now()}`;
  const [risky, quoted] = await createTodos([
    { name: batch, title: '=cmd|/c calc' },
    { name: batch, title: 'a, "quoted" title', tags: ['x'] },
  ]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openTodos(page);
  await expect(page.getByRole('heading', { name: 'Todo', level: 2 })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Todo-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile(await download.path(), 'utf8');
  expect(text.startsWith('\uFEFFid,name,title,')).toBe(true);
  const lineOf = (id: string) => text.split('\r\n').find((line) => line.startsWith(`${id},`)) ?? '';
  expect(lineOf(risky?.id ?? '')).toContain(`,${batch},'=cmd|/c calc,`);
  expect(lineOf(quoted?.id ?? '')).toContain(`,${batch},"a, ""quoted"" title",`);
  expect(lineOf(quoted?.id ?? '')).toContain(',"[""x""]",');
  expect(text).not.toMatch(/(^|,)=cmd/m);
  await expect(toast(page, 'Exported ')).toBeVisible();
});

/** openImport signs in at 1440 px, opens Import CSV on Todo and picks csv as the file name; answers the dialog. */
async function openImport(page: Page, name: string, csv: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openTodos(page);
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import CSV into Todo' });
  await dialog.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  return dialog;
}

test('Import CSV reports the bad row with its field and message, then imports the good rows', async ({
  page,
}) => {
  const batch = `imp${Date.now()}`;
  const csv = `name,title,priority\r\n${batch},good one,2\r\n${batch},bad one,9\r\n${batch},"good, two",3\r\n`;
  const dialog = await openImport(page, 'todos.csv', csv);
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByText('Nothing was imported')).toBeVisible();
  const report = dialog.getByRole('table');
  await expect(report.getByRole('row')).toHaveCount(2);
  await expect(report.getByRole('row').nth(1).getByRole('cell')).toHaveText([
    '2',
    'priority',
    'Input should be ≤ 5',
  ]);
  expect(await todosNamed(batch)).toEqual([]);
  await expectNoAxeViolations(page, 'import report');
  await consoleScreenshot(page, 'data-import-report');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page, 'import report at 390');

  await dialog.getByRole('button', { name: 'Import the 2 rows without problems' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Imported 2 Todo records.')).toBeVisible();
  // One transaction: the rows share their created_date, so they are compared by title.
  const stored = (await todosNamed(batch)).map((record) => [record.title, record.priority]);
  expect(stored.sort()).toEqual([
    ['good one', 2],
    ['good, two', 3],
  ]);
  // The refused file left no audit row; the import did, with its count.
  const imports = (await auditRows(['records:Todo'])).filter((row) => row.action === 'record.import');
  expect(imports.at(-1)).toMatchObject({ actor: { email: admin.email }, after: { imported: 2 } });
});

test('Import CSV shows the upload progress, then the stored count', async ({ page }) => {
  const batch = `prog${Date.now()}`;
  const rows = Array.from({ length: 3000 }, (_, i) => `${batch},row ${i} ${'x'.repeat(60)},${(i % 5) + 1}`);
  const csv = `name,title,priority\r\n${rows.join('\r\n')}\r\n`;
  const dialog = await openImport(page, 'many.csv', csv);
  // The ~250 KB file goes up at 100 KB/s (Chromium's own throttling), so the bar is seen moving.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 100 * 1024,
  });
  // Through the SDK's import route (which audits an admin's import), not a console-only path.
  const posted = page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === `${TODO}/import`,
  );
  await dialog.getByRole('button', { name: 'Import' }).click();
  await posted;
  const bar = dialog.getByRole('progressbar', { name: 'Upload progress' });
  await expect(bar).toBeVisible();
  await expect(dialog.getByText(/^Uploading… [1-9]\d?%$/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Importing…' })).toBeDisabled();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(toast(page, 'Imported 3000 Todo records.')).toBeVisible();
  const q = encodeURIComponent(JSON.stringify({ name: batch }));
  const counted = await api(server, `${TODO}/count?q=${q}`, { method: 'GET', token: SERVICE_TOKEN });
  expect(counted.json).toEqual({ count: 3000 });
});

test('a user who is not an admin gets "Admins only", and the entity list refuses them', async ({ page }) => {
  await openTodos(page, member.email);
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New record' })).toHaveCount(0);
  const entities = `/api/apps/${DEFAULT_APP_ID}/admin/entities`;
  expect((await api(server, entities, { method: 'GET', token: member.token })).status).toBe(403);
  expect((await api(server, entities, { method: 'GET' })).status).toBe(401);
  const listed = await api(server, entities, { method: 'GET', token: admin.token });
  expect(listed.status).toBe(200);
  const todo = (listed.json.entities as { name: string; schema: { properties: object } }[]).find(
    (entity) => entity.name === 'Todo',
  );
  expect(Object.keys(todo?.schema.properties ?? {})).toContain('priority');
});
