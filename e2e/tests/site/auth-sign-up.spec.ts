import { expect, forThisFile, test } from '../../support/test';
import { PASSWORD, uniqueEmail, userClient } from '../../support/auth-helpers';
import { expectBackSignedIn, loginUrl, openLogin } from '../../support/login-page';
import { mailsTo, otpFrom, waitForMail } from '../../support/outbox';
import type { RunningServer } from '../../support/server-process';

// Creating an account on the sign-in page: the mailed 6-digit code, resending it, and landing back on the site.

let server: RunningServer;
test.beforeAll(async ({ sharedAuthServer }) => {
  server = forThisFile(sharedAuthServer);
});

test('sign up, enter the mailed code, and come back signed in', async ({ page }) => {
  const email = uniqueEmail('sign-up');
  await openLogin(page, loginUrl(server, '/missing'));
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  const codeField = page.getByLabel('Verification code');
  await expect(codeField).toBeFocused();
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(page.getByText(email)).toBeVisible();

  const code = otpFrom(await waitForMail(server.dataDir, email));
  await codeField.fill(code);
  await page.getByRole('button', { name: 'Verify and continue' }).click();

  const token = await expectBackSignedIn(page, server, '/missing');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  const me = await userClient(server, token).auth.me();
  expect(me.email).toBe(email);
});

test('a wrong code is refused inline; Resend mails a new one that works', async ({ page }) => {
  const email = uniqueEmail('resend');
  await openLogin(page, loginUrl(server, '/'));
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  const first = otpFrom(await waitForMail(server.dataDir, email));

  await page.getByLabel('Verification code').fill(first === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify and continue' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/login');

  const seen = (await mailsTo(server.dataDir, email)).length;
  await page.getByRole('button', { name: 'Resend code' }).click();
  await expect(page.getByRole('status')).toContainText(`We sent a new code to ${email}`);
  const second = otpFrom(await waitForMail(server.dataDir, email, seen));

  await page.getByLabel('Verification code').fill(second);
  await page.getByRole('button', { name: 'Verify and continue' }).click();
  await expectBackSignedIn(page, server, '/');
  await expect(page.getByText('QUEEN OF QUEENS')).toBeVisible();
});
