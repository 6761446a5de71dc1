import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inferEntities } from './entity-inference';
import {
  listSourceFiles,
  MAX_SOURCE_FILE_BYTES,
  MAX_SOURCE_FILES,
  MAX_TOTAL_SOURCE_BYTES,
} from './source-files';

const made: string[] = [];

/** app writes files (path → text) under a fresh folder and returns it. */
async function app(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'queen-infer-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('inferEntities', () => {
  it('merges the fields of every file, front end and functions, and says where each entity is named', async () => {
    const dir = await app({
      'src/pages/Todos.jsx': `import { base44 } from '@/api/base44Client';\nbase44.entities.Todo.create({ title: 't', is_done: false });\n`,
      'src/lib/stats.ts': `\n\nexport const top = () => base44.entities.Todo.filter({ priority: 2 }, '-due_date');\n`,
      'base44/functions/remind/entry.ts': `const base44 = createClientFromRequest(req);\nawait base44.asServiceRole.entities.Reminder.create({ sent_at: new Date().toISOString(), id: 'x', created_by: 'y' });\n`,
    });
    const { entities, skipped } = await inferEntities(dir);
    expect(skipped).toEqual([]);
    expect(entities).toEqual([
      {
        name: 'Reminder',
        properties: { sent_at: { type: 'string', format: 'date-time' } },
        seenIn: ['base44/functions/remind/entry.ts:2'],
      },
      {
        name: 'Todo',
        properties: {
          due_date: { type: 'string', format: 'date' },
          is_done: { type: 'boolean' },
          priority: { type: 'number' },
          title: { type: 'string' },
        },
        seenIn: ['src/lib/stats.ts:3', 'src/pages/Todos.jsx:2'],
      },
    ]);
  });

  it('leaves out the built-in User and names that are not entity names', async () => {
    const dir = await app({
      'src/a.js': `base44.entities.User.filter({ role: 'x' }); base44.entities['my-thing'].list();`,
    });
    expect((await inferEntities(dir)).entities).toEqual([]);
  });

  it('reports a file that does not parse and reads the others', async () => {
    const dir = await app({
      'src/broken.jsx': 'base44.entities.Bad.create({ a: ',
      'src/good.jsx': 'base44.entities.Good.create({ b: 1 });',
    });
    const { entities, skipped } = await inferEntities(dir);
    expect(entities.map((entity) => entity.name)).toEqual(['Good']);
    expect(skipped).toEqual([
      { file: 'src/broken.jsx', reason: expect.stringMatching(/^cannot be parsed: /) },
    ]);
  });

  it('reads a file with a 500,000-item array literal, and one that sets a state 60,000 times', async () => {
    const dir = await app({
      'src/data.js': `base44.entities.Arr.list(); const entities = [${Array(500_000).fill('1').join(',')}];`,
      'src/state.jsx': [
        'const [f, s] = useState({ a: 1 });',
        ...Array.from({ length: 60_000 }, () => 's({ b: 1 });'),
        'base44.entities.Q.create(f);',
      ].join('\n'),
    });
    const { entities, skipped } = await inferEntities(dir);
    expect(entities.map((entity) => entity.name)).toEqual(['Arr', 'Q']);
    expect(skipped).toEqual([]);
  }, 30_000);
});

describe('listSourceFiles: the bounds', () => {
  it('reads src/ and base44/functions/ only, and skips node_modules, dist, .git and non-source files', async () => {
    const dir = await app({
      'src/a.jsx': '',
      'src/b.tsx': '',
      'src/types.d.ts': '',
      'src/style.css': '',
      'src/node_modules/x/index.js': '',
      'src/dist/bundle.js': '',
      'src/.git/hook.js': '',
      'base44/functions/f/entry.ts': '',
      'scripts/tool.js': '',
    });
    const { files, skipped } = await listSourceFiles(dir);
    expect(files.map((file) => file.shown)).toEqual([
      'base44/functions/f/entry.ts',
      'src/a.jsx',
      'src/b.tsx',
    ]);
    expect(skipped).toEqual([]);
  });

  it('skips files over 1 MB', async () => {
    const dir = await app({ 'src/big.js': 'x'.repeat(MAX_SOURCE_FILE_BYTES + 1), 'src/small.js': '' });
    const { files, skipped } = await listSourceFiles(dir);
    expect(files.map((file) => file.shown)).toEqual(['src/small.js']);
    expect(skipped).toEqual([{ file: 'src/big.js', reason: 'larger than 1 MB' }]);
  });

  it(`reads at most ${MAX_SOURCE_FILES} files and reports the rest`, async () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_SOURCE_FILES + 2 }, (_, i) => [`src/f${String(i).padStart(5, '0')}.js`, '']),
    );
    const { files, skipped } = await listSourceFiles(await app(many));
    expect(files).toHaveLength(MAX_SOURCE_FILES);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]?.reason).toMatch(/more than 5000 source files/);
  }, 60_000);

  it('reads at most 64 MB in all and reports the rest', async () => {
    const count = MAX_TOTAL_SOURCE_BYTES / MAX_SOURCE_FILE_BYTES + 1;
    const mb = 'x'.repeat(MAX_SOURCE_FILE_BYTES);
    const many = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`src/f${String(i).padStart(3, '0')}.js`, mb]),
    );
    const { files, skipped } = await listSourceFiles(await app(many));
    expect(files).toHaveLength(count - 1);
    expect(skipped).toEqual([
      { file: `src/f${String(count - 1).padStart(3, '0')}.js`, reason: expect.stringMatching(/64 MB/) },
    ]);
  }, 60_000);

  it('never follows a symbolic link (a file or folder outside the app stays unread)', async () => {
    const outside = await app({ 'secret/leak.js': 'base44.entities.Leak.create({ a: 1 });' });
    const dir = await app({ 'src/a.js': '' });
    await symlink(join(outside, 'secret'), join(dir, 'src', 'linked'));
    await symlink(join(outside, 'secret', 'leak.js'), join(dir, 'src', 'leak.js'));
    const { files, skipped } = await listSourceFiles(dir);
    expect(files.map((file) => file.shown)).toEqual(['src/a.js']);
    expect(skipped.map((entry) => entry.file).sort()).toEqual(['src/leak.js', 'src/linked']);
    expect((await inferEntities(dir)).entities).toEqual([]);
  });
});
