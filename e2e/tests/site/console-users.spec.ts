import type { Page } from '@playwright/test';
import { expect, forThisFile, test } from '../../support/test';
import {
  api,
  createUser,
  PASSWORD,
  SERVICE_TOKEN,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { consoleScreenshot } from '../../support/console-screenshot';
import { mailsTo, waitForMail } from '../../support/outbox';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import type { RunningServer } from '../../support/server-process';

// The console's Users page actions (issue 23): invite, edit role and User.jsonc's custom fields, disable and
// enable, mail a password reset, "View as this user". Each change's stored effect and its audit-log row,
// the mails, a plain user refused by every new endpoint, axe with a dialog open, and the 390 px layout. The
// fixture project's user.jsonc declares nickname (maxLength 40), points (minimum 0) and vip.

let server: RunningServer;
const admin = { email: '', token: '', id: '' };
const member = { email: '', token: '', id: '' };
const USERS = `/api/apps/${DEFAULT_APP_ID}/admin/users`;

interface ListedUser {
  id: string;
  email: string;
  role: string;
  disabled: boolean;
  custom: Record<string, unknown>;
}
interface AuditRow {
  action: string;
  target: string;
  actor: { email?: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

test.beforeAll(async ({ sharedEntitiesServer }) => {
  server = forThisFile(sharedEntitiesServer);
  admin.email = uniqueEmail('users-admin');
  const made = await createUser(server, { email: admin.email, role: 'admin' });
  Object.assign(admin, { token: made.token, id: made.user.id });
  member.email = uniqueEmail('users-member');
  const other = await createUser(server, { email: member.email });
  Object.assign(member, { token: other.token, id: other.user.id });
});

/** stored is the user as the admin list answers it (SERVICE_TOKEN): role, status and custom fields. */
async function stored(email: string): Promise<ListedUser | undefined> {
  const answer = await api(server, `${USERS}?q=${encodeURIComponent(email)}`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  return (answer.json.users as ListedUser[]).find((user) => user.email === email);
}

async function auditOf(email: string): Promise<AuditRow[]> {
  const answer = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/audit-log`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  return (answer.json.items as AuditRow[]).filter((row) => row.target === `user:${email}`);
}

async function openUsers(page: Page, width: number) {
  await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
  await page.goto(`${server.url}/_/users`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
}

async function findRow(page: Page, email: string) {
  const main = page.getByRole('main');
  await main.getByLabel('Search by email or name').fill(email);
  await main.getByRole('button', { name: 'Search' }).click();
  await expect(main.getByRole('cell', { name: email, exact: true })).toBeVisible();
}

test('every new users endpoint refuses a plain user (403) and no token (401)', async () => {
  const calls = [
    { path: `${USERS}/fields`, method: 'GET' },
    { path: `${USERS}/invite`, method: 'POST', body: { user_email: uniqueEmail('never'), role: 'user' } },
    { path: `${USERS}/${member.id}`, method: 'PATCH', body: { role: 'admin' } },
    { path: `${USERS}/${admin.id}`, method: 'PATCH', body: { disabled: true } },
    { path: `${USERS}/${member.id}/password-reset`, method: 'POST', body: {} },
  ];
  for (const { path, ...init } of calls) {
    expect((await api(server, path, { ...init, token: member.token })).status, path).toBe(403);
    expect((await api(server, path, init)).status, path).toBe(401);
  }
  expect(await stored(member.email)).toMatchObject({ role: 'user', disabled: false });
  expect(await stored(admin.email)).toMatchObject({ role: 'admin', disabled: false });
  expect((await auditOf(member.email)).map((row) => row.action)).toEqual(['user.create']);
  // An admin may not disable themself, even by calling the endpoint.
  const self = await api(server, `${USERS}/${admin.id}`, {
    method: 'PATCH',
    body: { disabled: true },
    token: admin.token,
  });
  expect(self.status).toBe(403);
  expect(self.json.message).toBe('You cannot disable yourself: another admin must do it');
});

test('the table: search by name, role and status filters, sort by email both ways, pages of 50', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // 51 users sharing a tag (two pages): the first an admin, the second disabled, the last named.
  const tag = `tbl${Date.now().toString(36)}`;
  const emails = Array.from({ length: 51 }, (_, i) => `${tag}-${String(i).padStart(2, '0')}@example.test`);
  for (const [i, email] of emails.entries()) {
    const made = await api(server, USERS, {
      token: SERVICE_TOKEN,
      body: { email, password: PASSWORD, role: i === 0 ? 'admin' : 'user' },
    });
    expect(made.status).toBe(201);
  }
  const second = await stored(emails[1] ?? '');
  expect(
    (
      await api(server, `${USERS}/${second?.id}`, {
        method: 'PATCH',
        token: SERVICE_TOKEN,
        body: { disabled: true },
      })
    ).status,
  ).toBe(200);
  const named = userClient(server);
  const login = await named.auth.loginViaEmailPassword(emails[50] ?? '', PASSWORD);
  await userClient(server, login.access_token).auth.updateMe({ full_name: `Zelda ${tag}` });

  await openUsers(page, 1440);
  const main = page.getByRole('main');
  const emailCells = main.getByRole('cell', { name: new RegExp(`^${tag}-\\d{2}@example\\.test$`) });
  const search = async (q: string, role = 'Any', status = 'Any') => {
    await main.getByLabel('Search by email or name').fill(q);
    await main.getByLabel('Role').selectOption({ label: role });
    await main.getByLabel('Status').selectOption({ label: status });
    await main.getByRole('button', { name: 'Search' }).click();
  };
  await search(tag);
  const pages = main.getByRole('navigation', { name: 'Users pages' });
  await expect(pages).toContainText('Page 1 of 2 (51 users)');
  await expect(emailCells).toHaveCount(50);
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(pages).toContainText('Page 2 of 2 (51 users)');
  await expect(emailCells).toHaveCount(1);
  // Sorted by email, ascending by default; a click turns it, another turns it back (from page 1).
  const header = main.getByRole('columnheader', { name: 'Email' });
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(pages).toContainText('Page 1 of 2');
  await expect(emailCells.first()).toHaveText(emails[50] ?? '');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(emailCells.first()).toHaveText(emails[0] ?? '');
  // Another column sorts ascending first.
  const nameHeader = main.getByRole('columnheader', { name: 'Name' });
  await nameHeader.getByRole('button').click();
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(header).toHaveAttribute('aria-sort', 'none');
  // By name (not in the email), by role, by status.
  await search(`Zelda ${tag}`);
  await expect(emailCells).toHaveText([emails[50] ?? '']);
  await search(tag, 'admin');
  await expect(emailCells).toHaveText([emails[0] ?? '']);
  await search(tag, 'Any', 'Disabled');
  await expect(emailCells).toHaveText([emails[1] ?? '']);
  // 390 px: the table scrolls in its own box, the page does not.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('an admin invites a user with a role: the invitation mail arrives, the change is audited', async ({
  page,
}) => {
  const guest = uniqueEmail('users-guest');
  await openUsers(page, 1440);
  await page.getByRole('button', { name: 'Invite a user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a user' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Email')).toBeFocused();
  expect(await axeViolations(page), 'invite dialog at 1440').toEqual([]);
  await consoleScreenshot(page, 'users-invite');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await axeViolations(page), 'invite dialog at 390').toEqual([]);
  await dialog.getByLabel('Email').fill(guest);
  await dialog.getByLabel('Role').selectOption('admin');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status').getByText(`${guest} is invited as admin`)).toBeVisible();
  await expect(dialog).toBeHidden();

  const mail = await waitForMail(server.dataDir, guest);
  expect(mail.subject).toBe(`You are invited to ${DEFAULT_APP_ID}`);
  expect(mail.text).toContain('invite_token=');
  expect(await stored(guest)).toMatchObject({ role: 'admin', disabled: false });
  const [row] = await auditOf(guest);
  expect(row).toMatchObject({
    action: 'user.invite',
    actor: { email: admin.email },
    before: null,
    after: { role: 'admin', invitation_mailed: true },
  });
  expect(JSON.stringify(row)).not.toContain('invite_token');
});

test('an admin edits role and custom fields, disables, enables and mails a reset: each stored and audited', async ({
  page,
}) => {
  await openUsers(page, 1440);
  await findRow(page, member.email);
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: `View as this user: ${member.email}` })).toHaveAttribute(
    'href',
    `/_/data?as=${member.id}`,
  );

  // Edit, with the server's schema validation shown in the dialog first.
  await main.getByRole('button', { name: `Edit ${member.email}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${member.email}` });
  await edit.getByLabel('points').fill('-1');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByRole('alert')).toContainText('points');
  expect(await axeViolations(page), 'edit dialog with an error').toEqual([]);
  await edit.getByLabel('points').fill('7');
  await edit.getByLabel('nickname').fill('Moe');
  await edit.getByLabel('vip').check();
  await edit.getByLabel('Role').selectOption('admin');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').getByText(`${member.email} is saved.`)).toBeVisible();
  expect(await stored(member.email)).toMatchObject({
    role: 'admin',
    custom: { nickname: 'Moe', points: 7, vip: true },
  });
  const [edited] = await auditOf(member.email);
  expect(edited).toMatchObject({
    action: 'user.update',
    actor: { email: admin.email },
    before: { role: 'user', disabled: false, data: { nickname: null, points: null, vip: null } },
    after: { role: 'admin', disabled: false, data: { nickname: 'Moe', points: 7, vip: true } },
  });

  // Disable (asked first) at 390 px: the user can no longer sign in; then enable.
  await page.setViewportSize({ width: 390, height: 844 });
  await main.getByRole('button', { name: `Disable ${member.email}` }).click();
  const confirm = page.getByRole('dialog', { name: `Disable ${member.email}?` });
  expect(await axeViolations(page), 'disable dialog at 390').toEqual([]);
  await confirm.getByRole('button', { name: `Yes, disable ${member.email}` }).click();
  await expect(page.getByRole('status').getByText(`${member.email} is disabled`)).toBeVisible();
  expect(await stored(member.email)).toMatchObject({ disabled: true });
  await expect(userClient(server).auth.loginViaEmailPassword(member.email, PASSWORD)).rejects.toThrow();
  await main.getByRole('button', { name: `Enable ${member.email}` }).click();
  await expect(page.getByRole('status').getByText(`${member.email} is enabled`)).toBeVisible();
  expect(await stored(member.email)).toMatchObject({ disabled: false });

  // A reset link mailed: the password is not touched (the old one still signs in).
  const seen = (await mailsTo(server.dataDir, member.email)).length;
  await main.getByRole('button', { name: `Mail a password reset to ${member.email}` }).click();
  await expect(
    page.getByRole('status').getByText(`A password reset link was mailed to ${member.email}`),
  ).toBeVisible();
  const mail = await waitForMail(server.dataDir, member.email, seen);
  expect(mail.subject).toBe(`Reset your ${DEFAULT_APP_ID} password`);
  expect(mail.text).toContain(`An admin of ${DEFAULT_APP_ID} asked you to choose a new password`);
  await userClient(server).auth.loginViaEmailPassword(member.email, PASSWORD);

  const rows = await auditOf(member.email);
  expect(rows.map((row) => [row.action, row.actor.email, row.after?.disabled ?? null])).toEqual([
    ['user.password_reset', admin.email, null],
    ['user.update', admin.email, false],
    ['user.update', admin.email, true],
    ['user.update', admin.email, false],
    ['user.create', undefined, null],
  ]);
  expect(JSON.stringify(rows)).not.toMatch(/reset_token|password_hash/);
  // The signed-in admin's own row offers no Disable.
  await findRow(page, admin.email);
  await expect(main.getByRole('button', { name: `Disable ${admin.email}` })).toHaveCount(0);
  expect(await axeViolations(page), 'users at 390').toEqual([]);
});
