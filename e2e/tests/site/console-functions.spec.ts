import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/test';
import { api, createUser, PASSWORD, SERVICE_TOKEN, uniqueEmail } from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { consoleScreenshot } from '../../support/console-screenshot';
import { FUNCTIONS_ENV, FUNCTIONS_PROJECT } from '../../support/functions-project';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// The console's Functions page (issue 24) on a real server running the functions fixture's Deno functions,
// plus `nightly` (on-note's code with a schedule far in the future): the list with 24 h figures, a call
// from the console showing its output (and its row arriving live on an open Logs page), a call as a chosen user, "run now" running the schedule exactly
// once (one Audit row) and audited, a plain user refused, axe and the 390 px layout.

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let dir: string;
const admin = { email: '', token: '' };
const member = { email: '', token: '', id: '' };
const FUNCTIONS = `/api/apps/${DEFAULT_APP_ID}/admin/functions`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = await mkdtemp(join(tmpdir(), 'queen-console-functions-'));
  // Functions run as nobody when the tests run as root: their code must be readable by others.
  await chmod(dir, 0o755);
  await cp(FUNCTIONS_PROJECT, dir, { recursive: true });
  await mkdir(join(dir, 'functions/nightly'));
  await cp(join(FUNCTIONS_PROJECT, 'functions/on-note/entry.ts'), join(dir, 'functions/nightly/entry.ts'));
  await writeFile(
    join(dir, 'functions/nightly/function.jsonc'),
    JSON.stringify({
      name: 'nightly',
      automations: [
        {
          name: 'far away',
          type: 'scheduled',
          schedule_mode: 'one-time',
          one_time_date: '2099-01-01T00:00:00.000Z',
          function_args: { label: 'run from the console' },
        },
      ],
    }),
  );
  server = await startServer({ env: { ...FUNCTIONS_ENV, PROJECT_DIR: dir } });
  admin.email = uniqueEmail('functions-admin');
  admin.token = (await createUser(server, { email: admin.email, role: 'admin' })).token;
  member.email = uniqueEmail('functions-member');
  const made = await createUser(server, { email: member.email });
  member.token = made.token;
  member.id = made.user.id;
});

test.afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function openFunctions(page: Page, email: string, width = 1440) {
  await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
  await page.goto(`${server.url}/_/functions`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function scheduledAudits(): Promise<{ text: string }[]> {
  const rows = await api(server, `/api/apps/${DEFAULT_APP_ID}/entities/Audit`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  return (rows.json as unknown as { source: string; text: string }[]).filter(
    (row) => row.source === 'scheduled',
  );
}

test('a function invoked from the console shows its status, body and output, its log row arrives live on an open Logs page, and the list counts it', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  // The Logs page open in another tab, following calls live (its own session: sessionStorage is per tab).
  const logs = await context.newPage();
  await logs.addInitScript(
    (value) => sessionStorage.setItem('queen-console.access-token', value),
    admin.token,
  );
  await logs.goto(`${server.url}/_/logs?function=chatty`);
  await expect(logs.getByRole('status').filter({ hasText: 'Following new entries live.' })).toBeVisible();
  await expect(logs.getByText('No entries match these filters.')).toBeVisible();
  await openFunctions(page, admin.email);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Functions', level: 1 })).toBeVisible();
  await main.getByRole('button', { name: 'chatty' }).click();
  await main.getByLabel('JSON body').fill('{"fail": true}');
  await main.getByRole('button', { name: 'Invoke' }).click();
  const result = main.getByRole('region', { name: 'Call result' });
  await expect(result.getByTestId('invoke-status')).toHaveText('500', { timeout: 30_000 });
  await expect(result.getByLabel('Body')).toContainText('asked to fail');
  // The answer's headers, behind their summary.
  await result.getByText(/^Headers \(\d+\)$/).click();
  await expect(result.locator('details pre')).toContainText(/content-type: application\/json/i);
  // The output as the function logs keep it: both streams, the tokens it printed redacted.
  const output = result.getByLabel('Output');
  await expect(output).toContainText('chatty says hello');
  await expect(output).toContainText('! chatty warns');
  await expect(output).not.toContainText(admin.token);
  // No reload there: the call's row came through the live stream.
  const logged = logs.getByRole('main').getByRole('row').filter({ hasText: 'chatty' });
  await expect(logged).toHaveCount(1, { timeout: 15_000 });
  await expect(logged).toContainText('500');
  await logs.close();
  // The list's figures come from the logs: one call, all failed.
  await page.reload();
  const row = main.getByRole('row', { name: /chatty/ });
  const cells = row.getByRole('cell');
  await expect(cells.nth(0)).toHaveText('500');
  await expect(cells.nth(1)).toHaveText('1');
  await expect(cells.nth(2)).toHaveText('100.0 %');
  expect(await axeViolations(page), 'functions at 1440').toEqual([]);
  await main.getByRole('button', { name: 'chatty' }).click();
  await consoleScreenshot(page, 'functions');
});

test('a call as a chosen user runs with their token, logged as theirs; keyboard only', async ({ page }) => {
  test.setTimeout(90_000);
  await openFunctions(page, admin.email);
  const main = page.getByRole('main');
  // Keys only from here: Enter opens the function, Enter in a field sends its form.
  await main.getByRole('button', { name: 'whoAmI' }).focus();
  await page.keyboard.press('Enter');
  const asUser = main.getByLabel('Call as user (email; empty: you)');
  await asUser.focus();
  await page.keyboard.type(member.email);
  await page.keyboard.press('Enter');
  const result = main.getByRole('region', { name: 'Call result' });
  await expect(result.getByTestId('invoke-status')).toHaveText('200', { timeout: 30_000 });
  await expect(result.getByLabel('Body')).toContainText(`"email":"${member.email}"`);
  // Without a chosen user: the admin.
  await asUser.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  await expect(result.getByLabel('Body')).toContainText(`"email":"${admin.email}"`, { timeout: 30_000 });
  // The chosen user's call is logged as theirs (the Logs page's User filter).
  const logged = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/logs/functions?function=whoAmI`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  const users = (logged.json.items as { user_id: string | null }[]).map((item) => item.user_id);
  expect(users).toContain(member.id);
  expect(users.every((id) => id !== null)).toBe(true);
});

test('"run now" runs a schedule exactly once, audited', async ({ page }) => {
  test.setTimeout(90_000);
  expect(await scheduledAudits()).toEqual([]);
  await openFunctions(page, admin.email, 390);
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'nightly' }).click();
  // The next run is the schedule's date (a <time> carries it exactly, shown in the viewer's locale).
  await expect(main.getByText(/^Next run/)).toBeVisible();
  await expect(main.locator('time[datetime="2099-01-01T00:00:00.000Z"]')).toBeVisible();
  await main.getByRole('button', { name: 'Run now: far away' }).click();
  await expect(page.getByText('far away ran (status 200).')).toBeVisible({ timeout: 30_000 });
  expect(await scheduledAudits()).toEqual([expect.objectContaining({ text: 'run from the console' })]);
  await expect(main.getByRole('list', { name: 'Last automation runs' })).toContainText('status 200');
  expect(await axeViolations(page), 'functions at 390').toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const audit = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/audit-log`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  const runs = (audit.json.items as { action: string; target: string; actor: { email?: string } }[]).filter(
    (row) => row.action === 'schedule.run',
  );
  expect(runs).toEqual([
    expect.objectContaining({
      target: 'schedule:nightly/far away',
      actor: expect.objectContaining({ email: admin.email }),
    }),
  ]);
  // Still one row: the runner did not also run it (its time is years away).
  expect(await scheduledAudits()).toHaveLength(1);
});

test('bad input is a 4xx; a user who is not an admin gets "Admins only" and 403s', async ({ page }) => {
  const invoke = `${FUNCTIONS}/chatty/invoke`;
  expect(
    (await api(server, `${FUNCTIONS}/nope/invoke`, { token: admin.token, body: { body: {} } })).status,
  ).toBe(404);
  expect(
    (await api(server, `${FUNCTIONS}/bad%20name/invoke`, { token: admin.token, body: { body: {} } })).status,
  ).toBe(400);
  expect(
    (await api(server, invoke, { token: admin.token, body: { body: 'x'.repeat(300_000) } })).status,
  ).toBe(400);
  expect(
    (await api(server, invoke, { token: admin.token, body: { body: {}, as_user_id: 'nobody' } })).status,
  ).toBe(404);
  expect(
    (await api(server, `${FUNCTIONS}/chatty/schedules/none/run`, { token: admin.token, body: {} })).status,
  ).toBe(404);
  expect((await api(server, FUNCTIONS, { method: 'GET', token: member.token })).status).toBe(403);
  expect((await api(server, invoke, { token: member.token, body: { body: {} } })).status).toBe(403);
  expect(
    (await api(server, `${FUNCTIONS}/nightly/schedules/far%20away/run`, { token: member.token, body: {} }))
      .status,
  ).toBe(403);
  expect((await api(server, FUNCTIONS, { method: 'GET' })).status).toBe(401);
  await openFunctions(page, member.email);
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invoke' })).toHaveCount(0);
});
