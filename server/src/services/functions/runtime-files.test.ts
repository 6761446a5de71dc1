import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importMapFor, sdkSpecifiers, writeRuntimeFiles } from './runtime-files';

describe('sdkSpecifiers', () => {
  it('finds every pinned and unpinned SDK import, without subpaths', () => {
    const source = `
      import { createClientFromRequest } from 'npm:@base44/sdk@0.8.6';
      import x from "npm:@base44/sdk";
      const y = await import('npm:@base44/sdk@^0.7.1/dist/utils.js');
      import other from 'npm:@base44/sdkx@1';`;
    expect(sdkSpecifiers(source)).toEqual([
      'npm:@base44/sdk@0.8.6',
      'npm:@base44/sdk',
      'npm:@base44/sdk@^0.7.1',
    ]);
  });
});

describe('importMapFor', () => {
  it('maps each specifier and its subpaths to the shipped version', () => {
    const { imports } = importMapFor(['npm:@base44/sdk@0.7.1'], '0.8.50');
    expect(imports['npm:@base44/sdk@0.7.1']).toBe('npm:@base44/sdk@0.8.50');
    expect(imports['npm:@base44/sdk@0.7.1/']).toBe('npm:@base44/sdk@0.8.50/');
    expect(imports['@base44/sdk']).toBe('npm:@base44/sdk@0.8.50');
  });
});

describe('writeRuntimeFiles', () => {
  let dir = '';
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes the import map from the code folders and a wrapper that loads the patch first', async () => {
    dir = await mkdtemp(join(tmpdir(), 'runtime-files-'));
    await writeFile(join(dir, 'entry.ts'), "import 'npm:@base44/sdk@0.8.31';");
    const files = await writeRuntimeFiles({
      dir: join(dir, 'gen'),
      codeDirs: [dir, join(dir, 'none')],
      sdkVersion: '0.8.50',
    });
    const map = JSON.parse(await readFile(files.importMap, 'utf8')) as { imports: Record<string, string> };
    expect(map.imports['npm:@base44/sdk@0.8.31']).toBe('npm:@base44/sdk@0.8.50');
    const wrapper = await readFile(await files.wrapperFor('a/b', join(dir, 'entry.ts')), 'utf8');
    expect(wrapper.split('\n')[0]).toMatch(/^import \{ serveDefault \} from ".*patch\.ts";$/);
    expect(wrapper.split('\n')[1]).toMatch(/^import \* as entry from ".*entry\.ts";$/);
    expect(wrapper.split('\n')[2]).toBe('serveDefault(entry);');
  });
});
