import { expect, test } from '../../support/test';
import { AUTH_ENV, PASSWORD, uniqueEmail } from '../../support/auth-helpers';
import { createUserWithCli, expectBackSignedIn, openLogin, signInOnPage } from '../../support/login-page';
import { otpFrom, waitForMail } from '../../support/outbox';
import { startServer, type RunningServer } from '../../support/server-process';
import { waitForHydration } from '../../support/open-site';

// A private app: anonymous visitors are sent to the sign-in page and back; accounts the app has not
// approved (self sign-up off) see Access Restricted.

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({
    env: { ...AUTH_ENV, APP_VISIBILITY: 'private_with_login', APP_SELF_SIGNUP: 'false' },
  });
});
test.afterAll(async () => {
  await server.stop();
});

test('an anonymous visitor goes to the sign-in page and comes back to Home after signing in', async ({
  page,
}) => {
  const email = uniqueEmail('member');
  await createUserWithCli(server, { email, password: PASSWORD, role: 'user' });
  await page.goto(`${server.url}/?ref=launch`);
  await page.waitForURL((url) => url.pathname === '/login');
  const fromUrl = new URL(page.url()).searchParams.get('from_url');
  expect(fromUrl).toBe(`${server.url}/?ref=launch`);
  await waitForHydration(page);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  await signInOnPage(page, email, PASSWORD);
  await expectBackSignedIn(page, server, '/');
  expect(new URL(page.url()).searchParams.get('ref')).toBe('launch');
  await expect(page.getByText('QUEEN OF QUEENS')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('QUEEN SOLANA');
  // Rendered afresh behind the spinner, not hydrated: the static sections come from the prerendered HTML
  // the page kept (static-island.tsx).
  await expect(page.getByRole('heading', { name: 'Lightning Speed' })).toBeVisible();
  await expect(page.locator('[data-static-island="footer"]')).toContainText('Crowned on Solana');
});

test('a verified account the app has not approved sees Access Restricted', async ({ page }) => {
  const email = uniqueEmail('stranger');
  await openLogin(page, `${server.url}/login?from_url=${encodeURIComponent(`${server.url}/`)}`);
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('Verification code').fill(otpFrom(await waitForMail(server.dataDir, email)));
  await page.getByRole('button', { name: 'Verify and continue' }).click();

  await expectBackSignedIn(page, server, '/');
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(
    page.getByText('You are not registered to use this application. Please contact the app administrator'),
  ).toBeVisible();
  await expect(page.getByText('QUEEN OF QUEENS')).toHaveCount(0);
});
