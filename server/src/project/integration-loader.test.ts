import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectError } from './project-files';
import { loadCustomIntegrations } from './integration-loader';

let dir: string;
const openapi = {
  openapi: '3.0.3',
  paths: { '/items/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true }] } } },
};
const write = (name: string, value: unknown) =>
  writeFile(join(dir, 'integrations', name), typeof value === 'string' ? value : JSON.stringify(value));
const load = () => loadCustomIntegrations(dir, (path) => path.slice(dir.length + 1));

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'integrations-'));
  await mkdir(join(dir, 'integrations'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadCustomIntegrations', () => {
  it('loads nothing when the folder is missing', async () => {
    await rm(join(dir, 'integrations'), { recursive: true });
    expect((await load()).size).toBe(0);
  });

  it('loads an inline document (JSONC, comments allowed) and keeps unknown keys', async () => {
    await write(
      'items.jsonc',
      `{
        // where the API lives
        "baseUrl": "https://api.example.com",
        "openapi": ${JSON.stringify(openapi)},
        "auth": { "header": "Authorization", "secret": "ITEMS_TOKEN", "prefix": "Bearer " },
        "description": "kept as written",
      }`,
    );
    const items = (await load()).get('items');
    expect(items?.operations.has('get:/items/{id}')).toBe(true);
    expect(items?.auth).toEqual({ header: 'Authorization', secret: 'ITEMS_TOKEN', prefix: 'Bearer ' });
    expect(items?.timeoutMs).toBe(30_000);
    expect(items?.definition.description).toBe('kept as written');
  });

  it('loads a document from a .json file beside it (not taken for an integration itself)', async () => {
    await write('items.openapi.json', openapi);
    await write('items.jsonc', { baseUrl: 'https://api.example.com', openapi: './items.openapi.json' });
    const loaded = await load();
    expect([...loaded.keys()]).toEqual(['items']);
    expect(loaded.get('items')?.operations.size).toBe(1);
  });

  it.each([
    [
      'a bad base URL',
      { baseUrl: 'ftp://x', openapi },
      /integrations\/bad\.jsonc: baseUrl: must be an absolute http\(s\) URL/,
    ],
    ['a missing openapi', { baseUrl: 'https://x.example' }, /integrations\/bad\.jsonc: openapi/],
    [
      'a bad secret name',
      { baseUrl: 'https://x.example', openapi, auth: { header: 'X-Key', secret: 'with-dash' } },
      /auth\.secret: must be a secret name/,
    ],
    [
      'an OpenAPI 2 document',
      { baseUrl: 'https://x.example', openapi: { swagger: '2.0', paths: {} } },
      /\(openapi\): openapi/,
    ],
    [
      'a document outside the project',
      { baseUrl: 'https://x.example', openapi: '../../etc/doc.json' },
      /outside the project folder/,
    ],
    [
      'a missing document file',
      { baseUrl: 'https://x.example', openapi: './nope.json' },
      /"\.\/nope\.json" cannot be read/,
    ],
    [
      'an undeclared path parameter',
      { baseUrl: 'https://x.example', openapi: { openapi: '3.0.0', paths: { '/a/{b}': { get: {} } } } },
      /path parameter \{b\} is not declared/,
    ],
  ])('stops on %s, naming the file and the key', async (_case, content, message) => {
    await write('bad.jsonc', content);
    await expect(load()).rejects.toThrow(ProjectError);
    await expect(load()).rejects.toThrow(message);
  });

  it('refuses a file name that is not a slug', async () => {
    await write('bad name.jsonc', { baseUrl: 'https://x.example', openapi });
    await expect(load()).rejects.toThrow(/the file name is the slug/);
  });
});
