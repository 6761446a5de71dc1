import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import { SERVICE_TOKEN } from './auth-helpers';
import { openSite } from './open-site';
import { REPO_ROOT, type RunningServer } from './server-process';

const run = promisify(execFile);

/** loginUrl is where the SDK's redirectToLogin() sends a visitor of `path` on this server. */
export function loginUrl(server: RunningServer, path = '/', extra = ''): string {
  return `${server.url}/login?from_url=${encodeURIComponent(`${server.url}${path}`)}${extra}`;
}

/** openLogin opens the sign-in page and waits until its forms work (hydrated). */
export async function openLogin(page: Page, url: string): Promise<void> {
  const response = await openSite(page, url);
  expect(response?.status()).toBe(200);
}

/** signInOnPage fills and sends the sign-in form of an open login page. */
export async function signInOnPage(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * expectBackSignedIn waits until the browser is back on `path` of the site with the token taken out of
 * the address bar and kept in localStorage, as the SDK does; it resolves with the stored token.
 */
export async function expectBackSignedIn(page: Page, server: RunningServer, path: string): Promise<string> {
  await page.waitForURL((url) => url.origin === server.url && url.pathname === path);
  await expect.poll(() => new URL(page.url()).searchParams.has('access_token')).toBe(false);
  const token = await page.evaluate(() => localStorage.getItem('base44_access_token'));
  expect(token).toBeTruthy();
  return token ?? '';
}

/** createUserWithCli adds a verified user through the operator CLI, which talks to the running server. */
export async function createUserWithCli(
  server: RunningServer,
  input: { email: string; password: string; role: 'admin' | 'user' },
): Promise<void> {
  await run(
    process.execPath,
    [
      'server/dist/cli.js',
      'create-user',
      '--email',
      input.email,
      '--password',
      input.password,
      '--role',
      input.role,
    ],
    { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: server.dataDir, SERVICE_TOKEN } },
  );
}
