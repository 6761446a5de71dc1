import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDataDirPrivate } from './private-data-dir';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('makeDataDirPrivate', () => {
  let dir: string;
  let outside: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'private-data-'));
    outside = await mkdtemp(join(tmpdir(), 'outside-'));
    await mkdir(join(dir, 'pglite/base'), { recursive: true });
    await writeFile(join(dir, 'pglite/base/1'), 'x', { mode: 0o666 });
    await chmod(join(dir, 'pglite/base/1'), 0o666);
    await mkdir(join(dir, 'deno/npm'), { recursive: true, mode: 0o755 });
    await writeFile(join(outside, 'shared.txt'), 'x');
    await chmod(join(outside, 'shared.txt'), 0o644);
    await symlink(join(outside, 'shared.txt'), join(dir, 'link'));
    await chmod(dir, 0o755);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('makes the folder and everything under it owner-only', async () => {
    await makeDataDirPrivate(dir);
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(join(dir, 'pglite'))).toBe(0o700);
    expect(await modeOf(join(dir, 'pglite/base/1'))).toBe(0o600);
    expect(await modeOf(join(dir, 'deno/npm'))).toBe(0o700);
  });

  it('keeps a reachable folder as it is, and the data folder only traversable', async () => {
    await makeDataDirPrivate(dir, ['deno']);
    expect(await modeOf(dir)).toBe(0o711);
    expect(await modeOf(join(dir, 'deno/npm'))).toBe(0o755);
    expect(await modeOf(join(dir, 'pglite/base/1'))).toBe(0o600);
  });

  it('does not follow symbolic links out of the folder', async () => {
    await makeDataDirPrivate(dir);
    expect(await modeOf(join(outside, 'shared.txt'))).toBe(0o644);
  });
});
