import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/test';
import { api, AUTH_ENV, createUser, PASSWORD, SERVICE_TOKEN, uniqueEmail } from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { consoleScreenshot } from '../../support/console-screenshot';
import { startOpenAiDouble, USAGE, type OpenAiDouble } from '../../support/openai-double';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';
import { startUpstreamDouble, type UpstreamDouble } from '../../support/upstream-double';

// The console's Integrations page (issue 24) on a real server wired to the LLM double and a custom
// integration on the REST double: the provider checked with one tiny call, today's tokens and top users,
// a test mail listed without its recipient, an operation tried with the app's secret, and the unreferenced
// files found (dry run) then removed behind a confirmation, audited; a plain user refused; axe and 390 px.

test.describe.configure({ mode: 'serial' });

const APP = `/api/apps/${DEFAULT_APP_ID}`;
const SECRET = 'double-secret-0123456789';
let server: RunningServer;
let llm: OpenAiDouble;
let upstream: UpstreamDouble;
let dir: string;
const admin = { email: '', token: '' };
const member = { email: '', token: '' };

const openapi = {
  openapi: '3.0.3',
  paths: {
    '/repos/{owner}/{repo}': {
      parameters: [
        { name: 'owner', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'repo', in: 'path', required: true, schema: { type: 'string' } },
      ],
      get: { operationId: 'getRepo', parameters: [{ name: 'per_page', in: 'query' }] },
    },
    '/missing': { get: {} },
  },
};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  llm = await startOpenAiDouble();
  upstream = await startUpstreamDouble();
  dir = await mkdtemp(join(tmpdir(), 'queen-console-integrations-'));
  await mkdir(join(dir, 'integrations'));
  await mkdir(join(dir, 'entities'));
  await writeFile(
    join(dir, 'entities', 'note.jsonc'),
    JSON.stringify({ name: 'Note', type: 'object', properties: { file: { type: 'string' } } }),
  );
  const auth = { header: 'Authorization', secret: 'DOUBLE_TOKEN', prefix: 'Bearer ' };
  await writeFile(
    join(dir, 'integrations', 'repos.jsonc'),
    JSON.stringify({ baseUrl: upstream.origin, openapi, auth }),
  );
  server = await startServer({
    env: {
      ...AUTH_ENV,
      APP_ID: DEFAULT_APP_ID,
      PROJECT_DIR: dir,
      LLM_PROVIDER_URL: llm.baseUrl,
      LLM_API_KEY: 'sk-console-check-key',
      OUTBOUND_PRIVATE_HOSTS: upstream.hostPort,
    },
  });
  const secret = await api(server, `${APP}/admin/secrets/DOUBLE_TOKEN`, {
    method: 'PUT',
    token: SERVICE_TOKEN,
    body: { value: SECRET },
  });
  expect(secret.status).toBeLessThan(300);
  admin.email = uniqueEmail('integrations-admin');
  admin.token = (await createUser(server, { email: admin.email, role: 'admin' })).token;
  member.email = uniqueEmail('integrations-member');
  member.token = (await createUser(server, { email: member.email })).token;
});

test.afterAll(async () => {
  await server?.stop();
  await llm?.close();
  await upstream?.close();
  await rm(dir, { recursive: true, force: true });
});

async function openIntegrations(page: Page, email: string, width = 1440) {
  await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
  await page.goto(`${server.url}/_/integrations`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
}

async function upload(name: string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([name], { type: 'text/plain' }), name);
  const response = await fetch(`${server.url}${APP}/integration-endpoints/Core/UploadFile`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
    body: form,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { file_url: string }).file_url;
}

const section = (page: Page, name: string) =>
  page.getByRole('main').getByRole('region', { name, exact: true });

test("the LLM check makes one tiny call; today's tokens and top users follow; a test mail is listed without its address", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const invoked = await api(server, `${APP}/integration-endpoints/Core/InvokeLLM`, {
    token: member.token,
    body: { prompt: 'hello' },
  });
  expect(invoked.status).toBe(200);
  expect((await api(server, `${APP}/admin/mail/test`, { token: admin.token, body: {} })).status).toBe(200);
  await openIntegrations(page, admin.email);
  const provider = section(page, 'LLM provider');
  await expect(provider).toContainText(new URL(llm.baseUrl).host);
  await expect(provider).toContainText('Not checked since the server started.');
  const chatsBefore = llm.chats().length;
  // By keyboard: the page's heading has the focus, the check is the next stop.
  await page.keyboard.press('Tab');
  await expect(provider.getByRole('button', { name: 'Check the provider' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(provider.getByRole('status')).toContainText('Reachable', { timeout: 20_000 });
  expect(llm.chats().slice(chatsBefore)).toEqual([expect.objectContaining({ max_tokens: 1 })]);
  const tokens = section(page, 'LLM tokens today');
  const perCall = USAGE.prompt_tokens + USAGE.completion_tokens;
  await expect(tokens).toContainText(`${perCall * 2} of 1,000,000 tokens`);
  await expect(tokens.getByRole('row', { name: member.email })).toContainText(String(perCall));
  const mail = section(page, 'Mail');
  await expect(mail).toContainText('Today: 1 sent, 0 failed.');
  await expect(mail.getByRole('table')).toContainText('sent');
  await expect(page.getByRole('main')).not.toContainText(admin.email);
  await expect(page.getByRole('main')).not.toContainText('sk-console-check-key');
  expect(await axeViolations(page), 'integrations at 1440').toEqual([]);
  await page.evaluate(() => window.scrollTo(0, 0));
  await consoleScreenshot(page, 'integrations');
});

test("an operation is tried with the app's secret and shows the upstream's answer", async ({ page }) => {
  test.setTimeout(60_000);
  await openIntegrations(page, admin.email);
  const custom = section(page, 'Custom integrations');
  await expect(custom).toContainText('2 operations');
  await expect(custom.getByRole('option')).toHaveText([
    'GET /repos/{owner}/{repo} (getRepo)',
    'GET /missing',
  ]);
  await expect(custom).toContainText('DOUBLE_TOKEN');
  await expect(custom).toContainText('set');
  await custom.getByLabel('Operation').selectOption({ label: 'GET /repos/{owner}/{repo} (getRepo)' });
  await custom.getByLabel('owner (path, required)').fill('queen');
  await custom.getByLabel('repo (path, required)').fill('hive');
  await custom.getByLabel('per_page (query)').fill('5');
  await custom.getByRole('button', { name: 'Try it' }).click();
  const answer = custom.getByRole('region', { name: 'repos answer' });
  await expect(answer.getByTestId('try-status')).toHaveText('200');
  await expect(answer).toContainText('"owner": "queen"');
  await expect(answer).toContainText('"per_page": "5"');
  const call = upstream.calls.at(-1);
  expect(call?.headers.authorization).toBe(`Bearer ${SECRET}`);
  expect(call?.url).toBe('/repos/queen/hive?per_page=5');
  await custom.getByLabel('Operation').selectOption({ label: 'GET /missing' });
  await custom.getByRole('button', { name: 'Try it' }).click();
  await expect(answer.getByTestId('try-status')).toHaveText('404');
  const audit = await api(server, `${APP}/admin/audit-log`, { method: 'GET', token: SERVICE_TOKEN });
  const tries = (audit.json.items as { action: string; target: string }[])
    .filter((row) => row.action === 'integration.try')
    .map((row) => row.target);
  expect(tries).toEqual(['integration:repos/get:/missing', 'integration:repos/get:/repos/{owner}/{repo}']);
});

test('unreferenced files are listed, then removed behind a confirmation, audited', async ({ page }) => {
  test.setTimeout(90_000);
  const kept = await upload('kept.txt');
  await upload('loose.txt');
  // A record naming the file keeps it.
  const note = await api(server, `${APP}/entities/Note`, { token: SERVICE_TOKEN, body: { file: kept } });
  expect(note.status).toBe(201);
  await openIntegrations(page, admin.email, 390);
  const files = section(page, 'File storage');
  await expect(files).toContainText('2 files');
  await files.getByLabel('Older than (hours)').fill('0');
  await files.getByRole('button', { name: 'Find unreferenced files' }).click();
  const found = files.getByRole('region', { name: 'Unreferenced files' });
  await expect(found).toContainText('1 files no record mentions');
  await expect(found).toContainText('loose.txt');
  await expect(found).not.toContainText('kept.txt');
  expect(await axeViolations(page), 'integrations at 390').toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // The dry run removed nothing; cancelling the confirmation removes nothing either.
  await found.getByRole('button', { name: 'Remove these files…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove unreferenced files?' });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(files).toContainText('2 files');
  await found.getByRole('button', { name: 'Remove these files…' }).click();
  await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByText('Removed 1 files')).toBeVisible();
  await expect(files).toContainText('1 files');
  expect((await fetch(kept)).status).toBe(200);
  const audit = await api(server, `${APP}/admin/audit-log`, { method: 'GET', token: SERVICE_TOKEN });
  const prunes = (audit.json.items as { action: string; after: unknown; actor: { email?: string } }[]).filter(
    (row) => row.action === 'files.prune',
  );
  expect(prunes).toEqual([
    expect.objectContaining({
      after: { removed: 1, bytes: 'loose.txt'.length, min_age_hours: 0 },
      actor: expect.objectContaining({ email: admin.email }),
    }),
  ]);
});

test('a user who is not an admin gets "Admins only" and a 403 from every endpoint', async ({ page }) => {
  const endpoints: [string, string, unknown][] = [
    ['GET', '/admin/integrations', undefined],
    ['POST', '/admin/integrations/llm/check', {}],
    ['POST', '/admin/integrations/custom/repos/try', { operation: 'getRepo' }],
    ['POST', '/admin/integrations/files/prune', { dry_run: false, min_age_hours: 0 }],
  ];
  for (const [method, path, body] of endpoints) {
    expect((await api(server, APP + path, { method, body, token: member.token })).status, path).toBe(403);
    expect((await api(server, APP + path, { method, body })).status, path).toBe(401);
  }
  const tooBig = await api(server, `${APP}/admin/integrations/custom/repos/try`, {
    token: admin.token,
    body: { operation: 'getRepo', payload: 'x'.repeat(70_000) },
  });
  expect(tooBig.status).toBe(413);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/_/integrations`);
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check the provider' })).toHaveCount(0);
});
