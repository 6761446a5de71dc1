import { expect, forThisFile, test } from '../../support/test';
import { createUser, PASSWORD, uniqueEmail } from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { expectBackSignedIn, loginUrl, openLogin, signInOnPage } from '../../support/login-page';
import type { RunningServer } from '../../support/server-process';

// The sign-in page itself: served prerendered, its errors, where it returns to, and its accessibility.

let server: RunningServer;
test.beforeAll(async ({ sharedAuthServer }) => {
  server = forThisFile(sharedAuthServer);
});

test('GET /login is the prerendered sign-in page with the boot data, never cached', async ({ request }) => {
  const response = await request.get(loginUrl(server, '/'));
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-cache');
  const html = await response.text();
  expect(html).toContain('<title>Sign in · QUEEN SOLANA</title>');
  expect(html).toContain('<meta name="robots" content="noindex" />');
  expect(html).toMatch(/<h1[^>]*>Sign in<\/h1>/);
  expect(html).toMatch(/<style>/);
  expect(html).not.toContain('<!--app-boot-->');
  expect(html).toContain('<script id="app-boot" type="application/json">{"appId":"queen-solana"');
  expect((await request.head(`${server.url}/login`)).status()).toBe(200);
});

test('the sign-in page hydrates without errors or requests elsewhere', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // The refused sign-in below is an expected failed load (401).
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text());
  });
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(server.url)) elsewhere.push(request.url());
  });
  await openLogin(page, loginUrl(server, '/'));
  await signInOnPage(page, 'nobody@example.test', 'not-a-password');
  await expect(page.getByRole('alert')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
  expect(elsewhere).toEqual([]);
});

test('a wrong password shows the server message inline and stays on the page', async ({ page }) => {
  const email = uniqueEmail('wrong-password');
  await createUser(server, { email });
  await openLogin(page, loginUrl(server, '/missing'));
  await signInOnPage(page, email, 'not the password');
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  expect(new URL(page.url()).pathname).toBe('/login');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).not.toHaveAttribute(
    'aria-disabled',
  );
  await expect(page.getByLabel('Email')).toHaveValue(email);
});

test('signing in returns to from_url with the token, which the site keeps', async ({ page }) => {
  const email = uniqueEmail('sign-in');
  await createUser(server, { email });
  await openLogin(page, loginUrl(server, '/missing', '&keep=1'));
  await signInOnPage(page, email, PASSWORD);
  await expectBackSignedIn(page, server, '/missing');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

test('a from_url on another origin is refused: the browser goes home', async ({ page, context }) => {
  const foreign: string[] = [];
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
    foreign.push(route.request().url());
    return route.abort();
  });
  const email = uniqueEmail('foreign');
  await createUser(server, { email });
  for (const fromUrl of ['https://evil.example/steal', '//evil.example/steal', 'http://localhost:1/x']) {
    await page.evaluate(() => localStorage.clear()).catch(() => undefined);
    await openLogin(page, `${server.url}/login?from_url=${encodeURIComponent(fromUrl)}`);
    await signInOnPage(page, email, PASSWORD);
    await expectBackSignedIn(page, server, '/');
    await expect(page.getByText('QUEEN OF QUEENS')).toBeVisible();
  }
  expect(foreign).toEqual([]);
});

test('keyboard: labels, focus moves to each new step, Enter submits', async ({ page }) => {
  await openLogin(page, loginUrl(server, '/'));
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username');
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute(
    'autocomplete',
    'current-password',
  );
  await page.getByRole('button', { name: 'Create an account' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeFocused();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeFocused();
  await page.getByLabel('Email').fill('nobody@example.test');
  await page.getByLabel('Password', { exact: true }).fill('whatever-it-is');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
});

test('the login page has no WCAG 2.2 AA violations, in any step; screenshot at 390×844', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLogin(page, loginUrl(server, '/'));
  expect(await axeViolations(page)).toEqual([]);
  const horizontalOverflow = await page.evaluate(
    () => document.documentElement.scrollWidth > window.innerWidth,
  );
  expect(horizontalOverflow).toBe(false);
  const path = testInfo.outputPath('login-390x844.png');
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach('login-390x844', { path, contentType: 'image/png' });

  await signInOnPage(page, 'nobody@example.test', 'wrong-password');
  await expect(page.getByRole('alert')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await openLogin(page, `${loginUrl(server, '/')}&reset_token=not-a-real-token`);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
