// Loading any Base44 app's `base44/` folder (issue 10): the three real fixture apps, an optional
// config.jsonc, `.app.jsonc`'s id, the User's own role declaration and the legacy rule keys real apps use.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EntityRlsSchema } from '../rules/rule-schema';
import { loadProject } from './project-loader';
import { USER_ENTITY } from './user-entity';

const FIXTURES = resolve(import.meta.dirname, '../../../../shared/fixtures/real-apps');
const fixtureApps = existsSync(FIXTURES) ? await readdir(FIXTURES, { withFileTypes: true }) : [];
const fixtureNames = fixtureApps.filter((entry) => entry.isDirectory()).map((entry) => entry.name);

const made: string[] = [];

/** app writes files (path → JSON content, or raw text) under a fresh app folder and returns it. */
async function app(files: Record<string, unknown>, folderName = 'my-app'): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'queen-hosting-'));
  made.push(root);
  const dir = join(root, folderName);
  await mkdir(join(dir, 'base44', 'entities'), { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the real fixture apps', () => {
  it('finds the three fixture apps', () => {
    expect(fixtureNames).toEqual(expect.arrayContaining(['camp-planner', 'safereturn', 'wellness']));
  });

  it.each(fixtureNames)('loads %s/base44 with every entity file and its app id', async (name) => {
    const dir = join(FIXTURES, name, 'base44');
    const loaded = await loadProject(dir);
    const files = (await readdir(join(dir, 'entities'))).filter((file) => file.endsWith('.jsonc'));
    expect(loaded.entities.size).toBe(files.length + (files.includes('User.jsonc') ? 0 : 1));
    expect(loaded.entities.has(USER_ENTITY)).toBe(true);
    expect(loaded.name.length).toBeGreaterThan(0);
    if (existsSync(join(dir, '.app.jsonc'))) expect(loaded.appId).toMatch(/^[0-9a-f]{24}$/);
  });

  it('keeps safereturn’s role declaration and custom fields, and camp-planner’s alternate_emails', async () => {
    const safereturn = (await loadProject(join(FIXTURES, 'safereturn', 'base44'))).entities.get(USER_ENTITY);
    expect(safereturn?.properties.role).toMatchObject({ enum: ['admin', 'user'], default: 'user' });
    expect(Object.keys(safereturn?.custom?.properties ?? {})).toContain('saved_primary_name');
    expect(safereturn?.custom?.properties).not.toHaveProperty('role');
    const camp = (await loadProject(join(FIXTURES, 'camp-planner', 'base44'))).entities.get(USER_ENTITY);
    expect(camp?.custom?.properties.alternate_emails).toMatchObject({ type: 'array' });
  });
});

describe('the project folder without config.jsonc', () => {
  it('takes the name from package.json next to base44/', async () => {
    const dir = await app({ 'package.json': { name: 'camp-app', private: true } });
    expect((await loadProject(join(dir, 'base44'))).name).toBe('camp-app');
  });

  it('takes the name from the app folder when there is no package.json', async () => {
    const dir = await app({}, 'wellness-garden');
    expect((await loadProject(join(dir, 'base44'))).name).toBe('wellness-garden');
  });

  it('prefers config.jsonc’s name and keeps its unknown keys without complaint', async () => {
    const dir = await app({
      'package.json': { name: 'base44-app' },
      'base44/config.jsonc': '{ "name": "Camp Planner", "site": { "buildCommand": "npm run build" }, }',
    });
    expect((await loadProject(join(dir, 'base44'))).name).toBe('Camp Planner');
  });

  it('refuses a config.jsonc with an empty name, naming the file and key', async () => {
    const dir = await app({ 'base44/config.jsonc': { name: '' } });
    await expect(loadProject(join(dir, 'base44'))).rejects.toThrow(/config\.jsonc: name: must not be empty/);
  });
});

describe('.app.jsonc', () => {
  it('gives the app id', async () => {
    const dir = await app({
      'base44/.app.jsonc': '{\n  // the CLI writes this\n  "id": "693f619e713b90b51412cfe0"\n}',
    });
    expect((await loadProject(join(dir, 'base44'))).appId).toBe('693f619e713b90b51412cfe0');
  });

  it('is optional', async () => {
    const dir = await app({});
    expect((await loadProject(join(dir, 'base44'))).appId).toBeUndefined();
  });

  it('refuses an unusable id, naming the file and key', async () => {
    const dir = await app({ 'base44/.app.jsonc': { id: 'not an id!' } });
    await expect(loadProject(join(dir, 'base44'))).rejects.toThrow(/\.app\.jsonc: id: must be 1–64/);
  });
});

describe('User.jsonc declaring the app’s roles', () => {
  const userFile = (role: unknown, extra: Record<string, unknown> = {}) => ({
    'base44/entities/User.jsonc': {
      name: 'User',
      type: 'object',
      properties: { role, is_leader: { type: 'boolean' }, ...extra },
      required: ['role'],
    },
  });

  it.each([
    [['admin', 'leader', 'pastor', 'user'], 'user'],
    [['admin', 'student'], 'student'],
  ])('accepts the enum %j with default %s, keeping the custom fields', async (roles, fallback) => {
    const dir = await app(
      userFile({ type: 'string', enum: roles, default: fallback, description: 'the app role' }),
    );
    const user = (await loadProject(join(dir, 'base44'))).entities.get(USER_ENTITY);
    expect(user?.properties.role).toMatchObject({ type: 'string', enum: roles, default: fallback });
    expect(user?.custom).toEqual({ properties: { is_leader: { type: 'boolean' } }, required: [] });
  });

  it.each([
    [
      { type: 'string', enum: ['admin', 'user'], default: 'owner' },
      /role\.default|default: the default role/,
    ],
    [{ type: 'number', enum: ['admin'] }, /role: type|type: must be "string"/],
    [{ type: 'string' }, /enum/],
    [{ type: 'string', enum: ['has space'] }, /enum\.0|must be a role name/],
  ])('refuses the role declaration %j, naming the file', async (role, message) => {
    const dir = await app(userFile(role));
    const failure = loadProject(join(dir, 'base44'));
    await expect(failure).rejects.toThrow(/User\.jsonc: /);
    await expect(failure).rejects.toThrow(message);
  });
});

describe('legacy rule keys real apps use', () => {
  it.each([
    ['write stands in for create/update/delete', { write: { created_by: '{{user.email}}' } }],
    ['null (as the CLI writes an empty rule)', { create: null, read: null }],
    ['user_condition on role', { read: { user_condition: { role: 'admin' } } }],
    ['a data.* path', { read: { 'data.user_email': '{{user.email}}' } }],
    ['created_by_id', { update: { created_by_id: '{{user.id}}' } }],
    [
      '$or of such',
      {
        read: {
          $or: [{ created_by: '{{user.email}}' }, { user_condition: { role: 'admin' } }],
        },
      },
    ],
    ['an empty create rule', { create: {} }],
  ])('parses %s', async (_label, rls) => {
    expect(EntityRlsSchema.safeParse(rls).success).toBe(true);
    const dir = await app({
      'base44/entities/Note.jsonc': { name: 'Note', properties: { user_email: { type: 'string' } }, rls },
    });
    expect((await loadProject(join(dir, 'base44'))).entities.get('Note')?.rls).toEqual(rls);
  });

  it('stops at an unknown rule key, naming the file and key', async () => {
    const dir = await app({
      'base44/entities/Note.jsonc': { name: 'Note', properties: {}, rls: { read: { $where: 'x' } } },
    });
    await expect(loadProject(join(dir, 'base44'))).rejects.toThrow(/Note\.jsonc: rls\.read.*\$where/);
  });
});
