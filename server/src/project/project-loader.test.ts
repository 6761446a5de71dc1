import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProject } from './project-loader';
import { isUserEntity, USER_ENTITY } from './user-entity';

const made: string[] = [];

/** project writes config.jsonc plus files (path → content) under a fresh folder and returns it. */
async function project(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'queen-loader-'));
  made.push(dir);
  await writeFile(join(dir, 'config.jsonc'), JSON.stringify({ name: 'Loader test' }));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), JSON.stringify(content));
  }
  return dir;
}

const todo = { name: 'Todo', properties: { title: { type: 'string' } } };

afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('loadProject and the built-in User', () => {
  it('always has the built-in User, with its fixed rules and no custom fields', async () => {
    const loaded = await loadProject(await project({ 'entities/todo.jsonc': todo }));
    const user = loaded.entities.get(USER_ENTITY);
    expect(user && isUserEntity(user)).toBe(true);
    expect(user?.custom).toEqual({ properties: {}, required: [] });
    expect(Object.keys(user?.properties ?? {})).toEqual(expect.arrayContaining(['email', 'role']));
    expect(user?.rls.read).toBeTruthy();
    expect(isUserEntity(loaded.entities.get('Todo') as never)).toBe(false);
  });

  it('extends the User with the custom fields of user.jsonc (any case of the name)', async () => {
    const nickname = { type: 'string', maxLength: 40 };
    for (const [file, name] of [
      ['entities/user.jsonc', 'User'],
      ['entities/User.jsonc', 'user'],
    ] as const) {
      const loaded = await loadProject(
        await project({ [file]: { name, properties: { nickname }, required: ['nickname'] } }),
      );
      const user = loaded.entities.get(USER_ENTITY);
      expect(user?.custom).toEqual({ properties: { nickname }, required: ['nickname'] });
      expect(user?.properties.nickname).toEqual(nickname);
      expect(user?.required).toEqual([]);
      expect([...loaded.entities.keys()].filter((key) => key.toLowerCase() === 'user')).toEqual(['User']);
    }
  });

  it.each(['email', 'full_name', 'id', 'created_date', 'updated_date', 'created_by', 'password_hash'])(
    'refuses a user.jsonc that redeclares %s, naming the file',
    async (field) => {
      const dir = await project({
        'entities/user.jsonc': { name: 'User', properties: { [field]: { type: 'string' } } },
      });
      await expect(loadProject(dir)).rejects.toThrow(
        new RegExp(`user\\.jsonc: the built-in User entity already has "${field}"`),
      );
    },
  );

  it('refuses rules, invalid fields and User seeds', async () => {
    await expect(
      loadProject(
        await project({
          'entities/user.jsonc': { name: 'User', properties: { a: { type: 'string' } }, rls: { read: true } },
        }),
      ),
    ).rejects.toThrow(/user\.jsonc: the built-in User entity's rules are fixed/);
    await expect(
      loadProject(
        await project({ 'entities/user.jsonc': { name: 'User', properties: { a: { type: 'nope' } } } }),
      ),
    ).rejects.toThrow(/user\.jsonc: properties\.a\.type/);
    await expect(
      loadProject(
        await project({ 'entities/user.jsonc': { name: 'User', properties: {}, required: ['x'] } }),
      ),
    ).rejects.toThrow(/user\.jsonc: required field "x" is not a property/);
    await expect(loadProject(await project({ 'seed/user.jsonc': [{ email: 'a@b.c' }] }))).rejects.toThrow(
      /seed\/user\.jsonc: users cannot be seeded/,
    );
  });

  it('refuses a second file declaring User', async () => {
    const dir = await project({
      'entities/a.jsonc': { name: 'User', properties: {} },
      'entities/b.jsonc': { name: 'user', properties: {} },
    });
    await expect(loadProject(dir)).rejects.toThrow(/b\.jsonc: entity "user" is declared twice/);
  });
});

describe('loadProject and schema patterns', () => {
  it('refuses a pattern without a linear-time match (records are checked with RE2), naming the field', async () => {
    const lookahead = { name: 'Todo', properties: { code: { type: 'string', pattern: '^(?=a)a+$' } } };
    await expect(loadProject(await project({ 'entities/todo.jsonc': lookahead }))).rejects.toThrow(
      /code.*pattern.*linear-time/,
    );
    const fine = { name: 'Todo', properties: { code: { type: 'string', pattern: '^[A-Z]{2}-\\d+$' } } };
    await expect(loadProject(await project({ 'entities/todo.jsonc': fine }))).resolves.toBeTruthy();
  });
});

describe('loadProject and config.jsonc folders', () => {
  it.each(['../outside', '/etc', 'entities/../../up'])(
    'refuses entitiesDir %s: a folder outside the project',
    async (folder) => {
      const dir = await project({ 'config.jsonc': { entitiesDir: folder } });
      await expect(loadProject(dir)).rejects.toThrow('must be a folder inside the project');
    },
  );
});
