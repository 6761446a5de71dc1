// sign-in-app (e2e/fixtures/sign-in-app, this repository's own): "Continue with Google" as generated apps
// write it (`base44.auth.loginWithProvider('google', location.href)` with the real @base44/sdk), served by
// us with Google and SSO pointed at an in-process OpenID provider (support/sign-in-server.ts). Chromium
// signs in three ways: the app's button on its own page (full-page redirect, back on the same page), the
// same app in an iframe on another origin (the SDK's popup), our `/login` page's provider buttons, and the
// console's (a popup: the console keeps tokens out of its address bar).
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { api, SERVICE_TOKEN, uniqueEmail } from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { waitForHydration } from '../../support/open-site';
import { prepareRepoApp } from '../../support/real-apps';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { freePort } from '../../support/server-process';
import { startSignInServer, type SignInSetup } from '../../support/sign-in-server';
import { expect, test } from '../../support/test';

const APP_NAME = 'Sign-in App';

let setup: SignInSetup;
let host: Server;
/**
 * hostUrl is the embedding page's address: another origin than the app's (another port), on the same site.
 * A cross-site embedder (`localhost` around `127.0.0.1`) cannot be tested here: Playwright's contexts block
 * third-party storage as incognito windows do, and the SDK's client then throws reading localStorage.
 */
let hostUrl: string;

/** account makes a person at the provider with a verified email; its id is what the login form takes. */
function account(email: string): string {
  const id = `acct-${randomBytes(6).toString('hex')}`;
  setup.provider.accounts.set(id, { email, email_verified: true, name: 'Ada Test' });
  return id;
}

/** signInAtProvider fills the provider's login form (its dev form takes any password) on page. */
async function signInAtProvider(page: Page, accountId: string): Promise<void> {
  await page.waitForURL(
    (url) => url.origin === setup.provider.issuer && url.pathname.startsWith('/interaction/'),
  );
  await page.locator('input[name="login"]').fill(accountId);
  await page.locator('input[name="password"]').fill('any-password');
  await page.locator('button[type="submit"]').click();
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // The embedding page's port is known first: the server must list it as a frame ancestor.
  const hostPort = await freePort();
  hostUrl = `http://127.0.0.1:${hostPort}`;
  host = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<!doctype html><title>host</title><iframe title="app" width="800" height="600" src="${setup.server.url}/settings"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => host.listen(hostPort, '127.0.0.1', resolve));
  const app = await prepareRepoApp('sign-in-app', { appId: DEFAULT_APP_ID });
  setup = await startSignInServer(
    {
      SITE_DIST: `${app.dir}/dist`,
      APP_SELF_SIGNUP: 'true',
      FRAME_ANCESTORS: `'self' ${hostUrl}`,
    },
    { appName: APP_NAME },
  );
  // Google's discovery goes to the test provider (its client's redirect URI is this server's callback).
  await setup.setSecret(
    'google_oauth_discovery_url',
    `${setup.provider.issuer}/.well-known/openid-configuration`,
  );
});

test.afterAll(async () => {
  await setup?.stop();
  await new Promise((resolve) => host?.close(resolve));
});

test("the app's Continue with Google signs in and lands back on the page it came from", async ({ page }) => {
  const email = uniqueEmail('sign-in-app-redirect');
  const id = account(email);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${setup.server.url}/settings`);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await signInAtProvider(page, id);

  await page.waitForURL((url) => url.origin === setup.server.url && url.pathname === '/settings');
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  // The SDK took the token out of the address bar and keeps it.
  expect(new URL(page.url()).searchParams.has('access_token')).toBe(false);
  expect(await page.evaluate(() => localStorage.getItem('base44_access_token'))).toBeTruthy();
  expect(errors).toEqual([]);
});

test('in an iframe on another origin the SDK signs in through a popup, and the iframe ends signed in', async ({
  page,
}) => {
  const email = uniqueEmail('sign-in-app-popup');
  const id = account(email);

  await page.goto(hostUrl);
  const frame = page.frameLocator('iframe[title="app"]');
  const popupOpened = page.waitForEvent('popup');
  const loginRequest = page
    .context()
    .waitForEvent('request', (request) => new URL(request.url()).pathname === '/api/apps/auth/login');
  await frame.getByRole('button', { name: 'Continue with Google' }).click();
  const popup = await popupOpened;
  // The popup started at our server, asking for the app's origin as the one to hand the token to.
  const started = new URL((await loginRequest).url());
  expect(started.origin).toBe(setup.server.url);
  expect(started.searchParams.get('popup_origin')).toBe(setup.server.url);
  expect(started.searchParams.get('from_url')).toBe(`${setup.server.url}/settings`);
  // Listened for before the form is sent: the popup may close (the SDK closes it) before the next line runs.
  const popupClosed = popup.waitForEvent('close');
  await signInAtProvider(popup, id);
  await popupClosed;

  await expect(frame.getByText(`Signed in as ${email}`)).toBeVisible();
  // The top page never navigated; the iframe is back on /settings without the token in its address.
  expect(page.url()).toBe(`${hostUrl}/`);
  const appFrame = page.frames().find((candidate) => candidate.url().startsWith(setup.server.url));
  expect(appFrame && new URL(appFrame.url()).pathname).toBe('/settings');
  expect(appFrame && new URL(appFrame.url()).searchParams.has('access_token')).toBe(false);
});

test("our /login page offers a button per enabled provider, named and keyboard reachable, and Google's signs in", async ({
  page,
}) => {
  await setup.setSecret('sso_name', 'Okta');
  const email = uniqueEmail('sign-in-page');
  const id = account(email);
  const fromUrl = `${setup.server.url}/settings`;

  await page.goto(`${setup.server.url}/login?from_url=${encodeURIComponent(fromUrl)}`);
  await waitForHydration(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  const google = page.getByRole('link', { name: 'Continue with Google' });
  const okta = page.getByRole('link', { name: 'Continue with Okta' });
  await expect(google).toHaveAttribute(
    'href',
    `/api/apps/auth/login?app_id=${DEFAULT_APP_ID}&from_url=${encodeURIComponent(fromUrl)}`,
  );
  await expect(okta).toHaveAttribute(
    'href',
    `/api/apps/${DEFAULT_APP_ID}/auth/sso/login?app_id=${DEFAULT_APP_ID}&from_url=${encodeURIComponent(fromUrl)}`,
  );
  await expect(page.getByText('or', { exact: true })).toBeVisible();
  // In the hosted app's neutral look, with no WCAG 2.2 AA violation.
  await expect(page.locator('html')).toHaveAttribute('data-look', 'neutral');
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('login-with-providers.png'), fullPage: true });

  // The keyboard reaches the buttons first (after the brand link), with a visible focus ring.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(google).toBeFocused();
  expect(await google.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('solid');
  await page.keyboard.press('Tab');
  await expect(okta).toBeFocused();

  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await signInAtProvider(page, id);
  await page.waitForURL((url) => url.origin === setup.server.url && url.pathname === '/settings');
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test("the console's Continue with Google signs in through a popup; the session is the console's own", async ({
  page,
}) => {
  await setup.setSecret('sso_name', 'Okta');
  const email = uniqueEmail('console-provider');
  const id = account(email);

  await page.goto(`${setup.server.url}/_/`);
  await expect(page.getByRole('button', { name: 'Continue with Okta' })).toBeVisible();
  const popupOpened = page.waitForEvent('popup');
  const loginRequest = page
    .context()
    .waitForEvent('request', (request) => new URL(request.url()).pathname === '/api/apps/auth/login');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  const popup = await popupOpened;
  const started = new URL((await loginRequest).url());
  expect(started.searchParams.get('popup_origin')).toBe(setup.server.url);
  expect(started.searchParams.get('from_url')).toBe(`${setup.server.url}/_/`);
  const popupClosed = popup.waitForEvent('close');
  await signInAtProvider(popup, id);
  await popupClosed;

  // Signed in as the new account, which is no admin yet; the token is in the tab's session only.
  await expect(page.getByRole('heading', { level: 1, name: 'Admins only' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  expect(new URL(page.url()).searchParams.has('access_token')).toBe(false);
  expect(await page.evaluate(() => localStorage.getItem('base44_access_token'))).toBeNull();
  // The provider's hand-over token was traded for a sign-in session's, which sign-out can end.
  const kept = await page.evaluate(() => sessionStorage.getItem('queen-console.access-token'));
  const claims = JSON.parse(Buffer.from(String(kept).split('.')[1] ?? '', 'base64url').toString()) as {
    sid?: string;
  };
  expect(claims.sid).toBeTruthy();

  // Made an admin (a role change ends the user's sessions), signing in again opens the console.
  const promoted = await api(setup.server, `/api/apps/${DEFAULT_APP_ID}/admin/users`, {
    method: 'PATCH',
    token: SERVICE_TOKEN,
    body: { email, role: 'admin' },
  });
  expect(promoted.status).toBe(200);
  await page.reload();
  // The provider remembers the account: the popup signs in and closes without its form.
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page.getByRole('link', { name: 'Overview' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
