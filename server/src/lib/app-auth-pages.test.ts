import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findAppAuthPages } from './app-auth-pages';

const roots: string[] = [];
afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

async function build(scripts: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'queen-auth-pages-'));
  roots.push(root);
  await mkdir(join(root, 'assets'));
  for (const [name, text] of Object.entries(scripts)) await writeFile(join(root, 'assets', name), text);
  return root;
}

describe('findAppAuthPages', () => {
  it('finds the routes a bundler printed, minified or not', async () => {
    const minified = await build({
      'index-a1.js': 'x=[{path:"/login",element:l},{path:"/reset-password",e}]',
    });
    expect(await findAppAuthPages(minified)).toEqual({ login: true, resetPassword: true });
    const spaced = await build({ 'index-b2.js': "routes = [{ path: '/login', element: Login }]" });
    expect(await findAppAuthPages(spaced)).toEqual({ login: true, resetPassword: false });
  });

  it('does not take a link or a redirect to /login for a route of its own', async () => {
    const root = await build({
      'index-c3.js': 'location.href="/login?from_url="+u;a.href="/reset-password";',
      'index-c3.js.map': '{"sourcesContent":["path: \\"/login\\""]}',
    });
    expect(await findAppAuthPages(root)).toEqual({ login: false, resetPassword: false });
  });

  it('finds nothing in a folder without scripts', async () => {
    expect(await findAppAuthPages(join(tmpdir(), 'queen-no-such-build'))).toEqual({
      login: false,
      resetPassword: false,
    });
  });
});
