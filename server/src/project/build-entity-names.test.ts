import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entityNamesInBuild, undeclaredEntities } from './build-entity-names';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

describe('entity names in a hosted build', () => {
  it('finds .entities.X and .entities["X"] in minified chunks, nested folders included', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'queen-build-names-'));
    folders.push(dist);
    await mkdir(join(dist, 'assets/chunks'), { recursive: true });
    await writeFile(
      join(dist, 'assets/index.js'),
      'a.entities.Trip.list("-created_date");b.entities.User.me()',
    );
    await writeFile(
      join(dist, 'assets/chunks/c.js'),
      'await e.entities["Packing_Item"].create({});x.entities.lower',
    );
    await writeFile(join(dist, 'assets/style.css'), '.entities.Nope{}');
    expect(await entityNamesInBuild(dist)).toEqual(['Packing_Item', 'Trip', 'User']);
    expect(await entityNamesInBuild(join(dist, 'missing'))).toEqual([]);
  });

  it('names the undeclared ones, whatever their case, never the built-in User', () => {
    expect(undeclaredEntities(['Trip', 'packing', 'User', 'Note'], ['trip', 'Note', 'User'])).toEqual([
      'packing',
    ]);
  });
});
