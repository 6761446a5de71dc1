import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

// The 2026 Base44 template ships its own sign-in and reset pages (React Router routes `/login` and
// `/reset-password`). A hosted build that has them keeps them: its `/login` is not hidden behind ours, and
// reset and invite mails link to its `/reset-password?token=…`. Found by reading the built route table.

/** AppAuthPages says which sign-in pages a hosted app's build routes itself. */
export interface AppAuthPages {
  login: boolean;
  resetPassword: boolean;
}

export const NO_APP_AUTH_PAGES: AppAuthPages = { login: false, resetPassword: false };

// A route declaration as bundlers print it: `path:"/login"` (minified) or `path: '/login'`.
const routePattern = (path: string) => new RegExp(`path\\s*:\\s*["'\`]/?${path}["'\`]`);
const LOGIN_ROUTE = routePattern('login');
const RESET_ROUTE = routePattern('reset-password');
/** The scan is bounded: a build is read once at start, never more than these. */
const MAX_FILES = 200;
const MAX_TOTAL_BYTES = 40 * 1024 * 1024;

/** findAppAuthPages reads the scripts under root/assets once to tell which sign-in pages the app routes. */
export async function findAppAuthPages(root: string): Promise<AppAuthPages> {
  const assets = join(root, 'assets');
  const names = (await readdir(assets).catch(() => [] as string[]))
    .filter((name) => /\.m?js$/.test(name))
    .slice(0, MAX_FILES);
  const found = { ...NO_APP_AUTH_PAGES };
  let budget = MAX_TOTAL_BYTES;
  for (const name of names) {
    const path = join(assets, name);
    const size = (await stat(path).catch(() => null))?.size ?? 0;
    if (size === 0 || size > budget) continue;
    budget -= size;
    const text = await readFile(path, 'utf8');
    found.login ||= LOGIN_ROUTE.test(text);
    found.resetPassword ||= RESET_ROUTE.test(text);
    if (found.login && found.resetPassword) break;
  }
  return found;
}
