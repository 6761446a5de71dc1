import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectError } from '../../project/project-files';
import { findFunction, loadFunctions } from './function-discovery';

let dir = '';
const put = async (path: string, text = 'Deno.serve(() => new Response("x"));') => {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'functions-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('loadFunctions', () => {
  it('finds config-based, zero-config (nested) and older single-file functions', async () => {
    await put(
      'configured/function.jsonc',
      '// name from the file\n{ "name": "named", "entry": "main.ts", "automations": [] }',
    );
    await put('configured/main.ts');
    await put('plain/entry.ts');
    await put('foo/bar/hello/entry.js');
    await put('legacy.ts');
    await put('legacy.test.ts');
    const found = await loadFunctions(dir);
    expect([...found.keys()].sort()).toEqual(['foo/bar/hello', 'legacy', 'named', 'plain']);
    expect(found.get('named')?.entry).toBe(join(dir, 'configured/main.ts'));
  });

  it('refuses an entry outside its folder, a dotted name and a name declared twice', async () => {
    await put('a/function.jsonc', '{ "name": "a", "entry": "../b/entry.ts" }');
    await put('b/entry.ts');
    await expect(loadFunctions(dir)).rejects.toThrow(ProjectError);
    await rm(join(dir, 'a'), { recursive: true });
    await put('c/function.jsonc', '{ "name": "c.d" }');
    await expect(loadFunctions(dir)).rejects.toThrow(/no dots/);
    await rm(join(dir, 'c'), { recursive: true });
    await put('x/function.jsonc', '{ "name": "b" }');
    await put('x/entry.ts');
    await expect(loadFunctions(dir)).rejects.toThrow(/declared twice/);
  });

  it('is empty without a functions folder', async () => {
    expect((await loadFunctions(join(dir, 'missing'))).size).toBe(0);
  });
});

describe('findFunction', () => {
  it('takes the function whose name prefixes the path, and the rest', async () => {
    await put('foo/bar/entry.ts');
    await put('baz/entry.ts');
    const found = await loadFunctions(dir);
    expect(findFunction(found, 'foo/bar/x/y')).toMatchObject({ def: { name: 'foo/bar' }, rest: 'x/y' });
    expect(findFunction(found, 'baz')).toMatchObject({ def: { name: 'baz' }, rest: '' });
    expect(findFunction(found, 'foo/x')).toBeNull();
  });
});
