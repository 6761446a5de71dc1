import type { Page } from '@playwright/test';
import { expect, forThisFile, test } from '../../support/test';
import { api, createUser, PASSWORD, SERVICE_TOKEN, uniqueEmail } from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { mailsTo, waitForMail } from '../../support/outbox';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import type { RunningServer } from '../../support/server-process';
import { consoleScreenshot } from '../../support/console-screenshot';

// The operator console at /_/ (issue 23, first increment): its page and headers, its own sign-in, "Admins
// only" for everyone else (the admin endpoints refuse them too), and the Overview with the server's figures,
// deep links, the back button and the narrow layout, with axe on every page built so far.

let server: RunningServer;
const admin = { email: '', token: '' };
const member = { email: '', token: '' };
const OVERVIEW = `/api/apps/${DEFAULT_APP_ID}/admin/overview`;

test.beforeAll(async ({ sharedAuthServer }) => {
  server = forThisFile(sharedAuthServer);
  admin.email = uniqueEmail('console-admin');
  admin.token = (await createUser(server, { email: admin.email, role: 'admin' })).token;
  member.email = uniqueEmail('console-member');
  member.token = (await createUser(server, { email: member.email })).token;
});

async function signIn(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectNoAxeViolations(page: Page, label: string) {
  expect(await axeViolations(page), label).toEqual([]);
}

test('the console page: every path under /_/, a strict CSP never framed; the admin endpoints refuse others', async ({
  request,
}) => {
  for (const path of ['/_/', '/_/secrets']) {
    const response = await request.get(`${server.url}${path}`, { headers: { accept: 'text/html' } });
    expect(response.status(), path).toBe(200);
    const csp = response.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers()['cache-control']).toBe('no-cache');
    expect(await response.text()).toContain(`<meta name="app-id" content="${DEFAULT_APP_ID}"`);
  }
  const secrets = `/api/apps/${DEFAULT_APP_ID}/admin/secrets`;
  const calls = [
    { path: OVERVIEW, method: 'GET' },
    { path: secrets, method: 'GET' },
    { path: `${secrets}/ANY_NAME`, method: 'PUT', body: { value: 'x' } },
    { path: `${secrets}/ANY_NAME`, method: 'DELETE' },
  ];
  for (const { path, ...init } of calls) {
    expect((await api(server, path, { ...init, token: member.token })).status, path).toBe(403);
    expect((await api(server, path, init)).status, path).toBe(401);
  }
});

test('a user who is not an admin gets "Admins only", and signing out ends the session', async ({ page }) => {
  await page.goto(`${server.url}/_/`);
  await expect(page.getByRole('heading', { name: 'Console sign-in' })).toBeVisible();
  await expectNoAxeViolations(page, 'sign-in');
  await consoleScreenshot(page, 'sign-in');
  await signIn(page, member.email);
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expectNoAxeViolations(page, 'admins only');
  // The console's session token (this tab's only) counts on the server until sign-out, then nowhere.
  const token = await page.evaluate(() => sessionStorage.getItem('queen-console.access-token'));
  expect(token).toBeTruthy();
  expect(await page.evaluate(() => localStorage.getItem('base44_access_token'))).toBeNull();
  const me = `/api/apps/${DEFAULT_APP_ID}/entities/User/me`;
  expect((await api(server, me, { method: 'GET', token: token ?? '' })).status).toBe(200);
  const ended = page.waitForResponse((response) => response.url().endsWith('/auth/sessions/current'));
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Console sign-in' })).toBeVisible();
  expect((await ended).status()).toBe(200);
  expect((await api(server, me, { method: 'GET', token: token ?? '' })).status).toBe(401);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Console sign-in' })).toBeVisible();
});

test('an admin signs in to the Overview, moves between pages, deep links and goes back', async ({ page }) => {
  const expected = (await api(server, OVERVIEW, { method: 'GET', token: SERVICE_TOKEN })).json as {
    app: { name: string; visibility: string; selfSignup: boolean };
    counts: { entities: { name: string; records: number }[] };
    database: { detail: string };
    realtime: string;
    fileStorage: string;
    llm: { detail: string };
    mail: { detail: string };
    version: string;
    warnings: { message: string; action: string }[];
  };
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/_/`);
  await signIn(page, admin.email);
  await expect(page).toHaveURL(`${server.url}/_/overview`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(main.getByText(DEFAULT_APP_ID, { exact: true })).toBeVisible();
  await expect(main.getByText(expected.app.name, { exact: true })).toBeVisible();
  // Users is the server's count at the moment the page asked: at least the two this file made.
  const users = Number(await main.locator('dt:text-is("Users") + dd').textContent());
  expect(users).toBeGreaterThanOrEqual(2);
  for (const entity of expected.counts.entities) {
    await expect(
      main.getByRole('row').filter({ has: page.getByRole('cell', { name: entity.name, exact: true }) }),
    ).toHaveText(`${entity.name}${entity.records}`);
  }
  // Every fact the server answered, as the page shows it.
  const fact = (term: string) => main.locator(`dt:text-is("${term}") + dd`);
  const visibilityLabels: Record<string, string> = {
    public_without_login: 'Public',
    public_with_login: 'Public, sign-in required',
    private_with_login: 'Private',
  };
  await expect(fact('Visibility')).toHaveText(visibilityLabels[expected.app.visibility] ?? '?');
  await expect(fact('Self-sign-up')).toHaveText(expected.app.selfSignup ? 'On' : 'Off');
  await expect(fact('Database')).toHaveText(expected.database.detail);
  await expect(fact('Realtime')).toHaveText(expected.realtime);
  await expect(fact('File storage')).toHaveText(expected.fileStorage);
  await expect(fact('LLM provider')).toHaveText(expected.llm.detail);
  await expect(fact('Mail')).toHaveText(expected.mail.detail);
  await expect(fact('Version')).toHaveText(expected.version);
  await expect(fact('Uptime')).toHaveText(/\d/);
  // The start-up warnings (the shipped placeholder contract address, at least), each with what to do.
  expect(expected.warnings.length).toBeGreaterThan(0);
  for (const warning of expected.warnings) {
    const item = main.getByRole('listitem').filter({ hasText: warning.message });
    await expect(item).toContainText(`What to do: ${warning.action}`);
  }
  await expect(main.getByText('PGlite', { exact: false }).or(main.getByText('PostgreSQL'))).toBeVisible();
  // The session is the console's own: not in the URL, not in the site's localStorage.
  expect(page.url()).not.toContain(admin.token.slice(0, 20));
  expect(await page.evaluate(() => localStorage.getItem('base44_access_token'))).toBeNull();
  await expectNoAxeViolations(page, 'overview at 1440');
  await consoleScreenshot(page, 'overview');

  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link')).toHaveText([
    'Overview',
    'Users',
    'Data',
    'Logs',
    'Analytics',
    'Functions',
    'Agents',
    'Integrations',
    'Secrets',
    'Settings',
  ]);
  await nav.getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(`${server.url}/_/users`);
  await expect(main.getByRole('heading', { name: 'Users', level: 1 })).toBeFocused();
  // Users: a search by part of an email finds the member this file made, on the server's page.
  await main.getByLabel('Search by email or name').fill(member.email.slice(0, -4));
  await main.getByRole('button', { name: 'Search' }).click();
  await expect(main.getByRole('cell', { name: member.email, exact: true })).toBeVisible();
  await expect(main.getByRole('cell', { name: admin.email, exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page, 'users at 1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page, 'users at 390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goBack();
  await expect(page).toHaveURL(`${server.url}/_/overview`);
  await expect(main.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  // A deep link opens its page in the same session; at 390 px the navigation folds into a menu.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/_/settings`);
  await expect(main.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(nav).toBeHidden();
  await expectNoAxeViolations(page, 'settings at 390');
  await page.getByRole('button', { name: 'Menu' }).click();
  await nav.getByRole('link', { name: 'Overview' }).click();
  await expect(main.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(main.getByText(DEFAULT_APP_ID, { exact: true })).toBeVisible();
  await expectNoAxeViolations(page, 'overview at 390');
  await consoleScreenshot(page, 'overview-390');
});

test('an admin sets and deletes a secret: names only, never the value, and each change audited', async ({
  page,
}) => {
  const name = `CONSOLE_E2E_${Date.now()}`;
  const value = `sk-console-${Date.now()}-never-shown`;
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => bodies.push(response.text().catch(() => '')));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/_/secrets`);
  await signIn(page, admin.email);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Secrets', level: 1 })).toBeVisible();
  await expect(main.getByText("Every change restarts the app's backend functions")).toBeVisible();
  await main.getByLabel('Name').fill(name);
  await main.getByLabel('Value').fill(value);
  await main.getByRole('button', { name: 'Set secret' }).click();
  await expect(
    page.getByRole('status').getByText(`${name} is set. The backend functions restarted`),
  ).toBeVisible();
  await expect(main.getByRole('cell', { name, exact: true })).toBeVisible();
  // When it was set: a <time> holding the moment, within the last minute.
  const setAt = await main
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name, exact: true }) })
    .locator('time')
    .getAttribute('datetime');
  expect(Date.now() - Date.parse(setAt ?? '')).toBeLessThan(60_000);
  await expect(main.getByLabel('Value')).toHaveValue('');
  await expectNoAxeViolations(page, 'secrets at 1440');
  await consoleScreenshot(page, 'secrets');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page, 'secrets at 390');

  await main.getByRole('button', { name: `Delete ${name}` }).click();
  await main.getByRole('button', { name: `Yes, delete ${name}` }).click();
  await expect(
    page.getByRole('status').getByText(`${name} is deleted. The backend functions restarted without it.`),
  ).toBeVisible();
  await expect(main.getByRole('cell', { name, exact: true })).toHaveCount(0);

  expect(await page.locator('body').innerText()).not.toContain(value);
  for (const body of await Promise.all(bodies)) expect(body).not.toContain(value);
  const audit = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/audit-log`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  expect(JSON.stringify(audit.json)).not.toContain(value);
  const rows = (audit.json.items as { action: string; target: string; actor: { email?: string } }[]).filter(
    (row) => row.target === `secret:${name}`,
  );
  expect(rows.map((row) => [row.action, row.actor.email])).toEqual([
    ['secret.delete', admin.email],
    ['secret.set', admin.email],
  ]);
});

test('an admin changes visibility live (public settings and audit log show it) and sends a test mail', async ({
  page,
}) => {
  const settingsUrl = `/api/apps/${DEFAULT_APP_ID}/admin/settings`;
  const before = (
    (await api(server, OVERVIEW, { method: 'GET', token: SERVICE_TOKEN })).json as {
      app: { visibility: string; selfSignup: boolean };
    }
  ).app;
  const target = before.visibility === 'private_with_login' ? 'public_with_login' : 'private_with_login';
  const label = target === 'private_with_login' ? 'Private' : 'Public, sign-in required';
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/_/settings`);
    await signIn(page, admin.email);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Save settings' })).toBeVisible();
    await expect(main.locator('dt:text-is("PUBLIC_URL")')).toBeVisible();
    await expect(main.locator('dt:text-is("SMTP_URL") + dd')).toHaveText(/^(on|off)$/);
    // The project's providers, read-only (the shared server's project enables none beyond the password).
    const providers = main.getByRole('region', { name: 'Sign-in providers' });
    await expect(providers).toContainText('Email and password');
    await expectNoAxeViolations(page, 'settings at 1440');
    await consoleScreenshot(page, 'settings');
    await main.getByRole('radio', { name: label }).check();
    await main.getByLabel(/^Self-sign-up/).setChecked(!before.selfSignup);
    await main.getByRole('button', { name: 'Save settings' }).click();
    await expect(
      page
        .getByRole('status')
        .getByText(`Settings saved: ${label}, self-sign-up ${before.selfSignup ? 'off' : 'on'}`),
    ).toBeVisible();
    const shown = await api(server, `/api/apps/public/prod/public-settings/by-id/${DEFAULT_APP_ID}`, {
      method: 'GET',
      token: admin.token,
    });
    expect(shown.json.public_settings).toBe(target);
    const audit = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/audit-log`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    const latest = (
      audit.json.items as {
        action: string;
        actor: { email?: string };
        before: { self_signup: boolean };
        after: { public_settings: string; self_signup: boolean };
      }[]
    )[0];
    expect(latest?.action).toBe('app.settings');
    expect(latest?.actor.email).toBe(admin.email);
    expect(latest?.before.self_signup).toBe(before.selfSignup);
    expect(latest?.after).toMatchObject({ public_settings: target, self_signup: !before.selfSignup });
    const seen = (await mailsTo(server.dataDir, admin.email)).length;
    await main.getByRole('button', { name: 'Send a test mail' }).click();
    await expect(
      page.getByRole('status').getByText(`A test mail is on its way to ${admin.email}.`),
    ).toBeVisible();
    expect((await waitForMail(server.dataDir, admin.email, seen)).subject).toContain('Test mail from');
    const mailed = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/audit-log`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    expect((mailed.json.items as { action: string; target: string }[])[0]).toMatchObject({
      action: 'mail.test',
      target: `user:${admin.email}`,
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(main.getByRole('radio', { name: label })).toBeChecked();
    await expectNoAxeViolations(page, 'settings at 390');
  } finally {
    await api(server, settingsUrl, {
      method: 'PUT',
      token: SERVICE_TOKEN,
      body: { visibility: before.visibility, self_signup: before.selfSignup },
    });
  }
});
