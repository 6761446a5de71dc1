import { expect, forThisFile, test } from '../../support/test';
import { api, PASSWORD, uniqueEmail, userClient } from '../../support/auth-helpers';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import {
  createUserWithCli,
  expectBackSignedIn,
  loginUrl,
  openLogin,
  signInOnPage,
} from '../../support/login-page';
import { linkFrom, mailsTo, waitForMail } from '../../support/outbox';
import type { RunningServer } from '../../support/server-process';

// The two mailed links the sign-in page opens: a password reset and an invitation.

let server: RunningServer;
test.beforeAll(async ({ sharedAuthServer }) => {
  server = forThisFile(sharedAuthServer);
});

test('forgot password: request a link, open it, choose a new password, sign in with it', async ({ page }) => {
  const email = uniqueEmail('forgot');
  await createUserWithCli(server, { email, password: PASSWORD, role: 'user' });
  await openLogin(page, loginUrl(server, '/missing'));
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeFocused();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('reset link');

  const { url } = linkFrom(await waitForMail(server.dataDir, email), 'reset_token');
  expect(new URL(url).pathname).toBe('/login');
  await openLogin(page, url);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  // The single-use token leaves the address bar at once.
  expect(new URL(page.url()).searchParams.has('reset_token')).toBe(false);
  const newPassword = 'a brand new crown 42';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();

  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeFocused();
  await expect(page.getByRole('status')).toContainText('password has been set');
  await signInOnPage(page, email, PASSWORD);
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await signInOnPage(page, email, newPassword);
  await expectBackSignedIn(page, server, '/');
});

test('a used reset link is refused with the server message', async ({ page }) => {
  const email = uniqueEmail('reused');
  await createUserWithCli(server, { email, password: PASSWORD, role: 'user' });
  await userClient(server).auth.resetPasswordRequest(email);
  const { url, token } = linkFrom(await waitForMail(server.dataDir, email), 'reset_token');
  await userClient(server).auth.resetPassword({ resetToken: token, newPassword: 'first use of the link' });
  await openLogin(page, url);
  await page.getByLabel('New password', { exact: true }).fill('second use of the link');
  await page.getByLabel('Confirm new password').fill('second use of the link');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toContainText('invalid, already used or expired');
});

test('invite: an admin invites, the guest sets a password and is signed in', async ({ page }) => {
  const admin = uniqueEmail('admin');
  await createUserWithCli(server, { email: admin, password: PASSWORD, role: 'admin' });
  const { access_token: adminToken } = await userClient(server).auth.loginViaEmailPassword(admin, PASSWORD);

  const guest = uniqueEmail('guest');
  const seen = (await mailsTo(server.dataDir, guest)).length;
  const invited = await api(server, `/api/apps/${DEFAULT_APP_ID}/users/invite-user`, {
    token: adminToken,
    body: { user_email: guest, role: 'user' },
  });
  expect(invited.status).toBe(200);
  const { url } = linkFrom(await waitForMail(server.dataDir, guest, seen), 'invite_token');

  await openLogin(page, url);
  await expect(page.getByRole('heading', { name: 'Accept your invitation' })).toBeVisible();
  const password = 'guest of the royal court';
  await page.getByLabel('Invited email').fill(guest);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();

  const token = await expectBackSignedIn(page, server, '/');
  await expect(page.getByText('QUEEN OF QUEENS')).toBeVisible();
  expect((await userClient(server, token).auth.me()).email).toBe(guest);
});
