import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasDotSegment, mayServe } from './served-path';

describe('hasDotSegment', () => {
  it.each(['/.env', '/.git/config', '/a/.hidden/x.js', '/a/../.env'])('%s is a dotfile path', (path) => {
    expect(hasDotSegment(path)).toBe(true);
  });
  it.each(['/assets/app.js', '/.well-known/security.txt', '/a.b/c'])('%s is not', (path) => {
    expect(hasDotSegment(path)).toBe(false);
  });
});

describe('mayServe', () => {
  let root: string;
  let outside: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'served-root-'));
    outside = await mkdtemp(join(tmpdir(), 'served-outside-'));
    await writeFile(join(outside, 'secrets.json'), '{}');
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'assets/app.js'), '');
    await symlink(join(root, 'assets/app.js'), join(root, 'inside-link.js'));
    await symlink(join(outside, 'secrets.json'), join(root, 'out.json'));
    await symlink(outside, join(root, 'out-dir'));
    await writeFile(join(root, 'page.js'), '');
    await symlink(join(outside, 'secrets.json'), join(root, 'page.js.br'));
    await writeFile(join(root, '.env'), 'SECRET=1');
    await mkdir(join(root, '.git'));
    await writeFile(join(root, '.git/config'), '');
    await symlink(join(root, '.env'), join(root, 'envlink'));
    await symlink(join(root, '.git'), join(root, 'gitdir'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('serves files and links that stay in the folder (and missing files, for a 404)', () => {
    expect(mayServe(root, '/assets/app.js')).toBe(true);
    expect(mayServe(root, '/inside-link.js')).toBe(true);
    expect(mayServe(root, '/missing.js')).toBe(true);
  });

  it('refuses links out of the folder, also a pre-compressed copy', () => {
    expect(mayServe(root, '/out.json')).toBe(false);
    expect(mayServe(root, '/out-dir/secrets.json')).toBe(false);
    expect(mayServe(root, '/page.js')).toBe(false);
  });

  it('refuses links without a dot that lead to a dotfile or into a dot folder', () => {
    expect(mayServe(root, '/envlink')).toBe(false);
    expect(mayServe(root, '/gitdir/config')).toBe(false);
  });
});
