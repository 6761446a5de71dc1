import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Caller } from '../rules/caller';
import { resolveRule } from '../rules/resolve-rule';
import { loadProject } from './project-loader';
import type { InferredEntity } from './entity-inference';
import { INFERRED_RULES, inferredSchemaText, writeInferredSchemas } from './inferred-schema';

const made: string[] = [];

async function projectDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'queen-inferred-'));
  made.push(dir);
  await mkdir(join(dir, 'entities'));
  return dir;
}

afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const task: InferredEntity = {
  name: 'Task',
  properties: {
    title: { type: 'string' },
    due_date: { type: 'string', format: 'date' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  seenIn: ['src/Tasks.jsx:4', 'src/Tasks.jsx:9', 'base44/functions/f/entry.ts:2'],
};

describe('inferredSchemaText', () => {
  it('opens with where it came from and what its rules allow', () => {
    const text = inferredSchemaText(task);
    expect(text).toMatch(/^\/\/ Inferred by `npm run cli -- entities infer`/);
    expect(text).toContain('// From: src/Tasks.jsx, base44/functions/f/entry.ts.');
    expect(text).toContain('signed-in users only');
    expect(text).toContain('edit "rls" below');
  });

  it('keeps a file name with a line break inside its comment', () => {
    const text = inferredSchemaText({ ...task, seenIn: ['src/a\n"rls": {},.js:1'] });
    expect(text.split('\n').filter((line) => !line.startsWith('//'))[0]).toBe('{');
  });
});

describe('writeInferredSchemas', () => {
  it('writes <Name>.jsonc files that the project loader reads, with the fields and signed-in-only rules', async () => {
    const dir = await projectDir();
    const note: InferredEntity = { name: 'Note', properties: {}, seenIn: ['src/a.js:1'] };
    const { written, kept } = await writeInferredSchemas(join(dir, 'entities'), [task, note]);
    expect(written).toEqual([join(dir, 'entities', 'Task.jsonc'), join(dir, 'entities', 'Note.jsonc')]);
    expect(kept).toEqual([]);
    const project = await loadProject(dir);
    const loaded = project.entities.get('Task');
    expect(loaded?.properties).toEqual(task.properties);
    expect(loaded?.rls).toEqual(INFERRED_RULES);
    expect(project.entities.get('Note')?.properties).toEqual({});
  });

  it('admits signed-in users and refuses anonymous visitors, for every operation', () => {
    const user: Caller = {
      kind: 'user',
      user: { id: 'u1', email: 'a@b.c', role: 'user', full_name: 'A', custom: {} },
    };
    const anonymous: Caller = { kind: 'anonymous' };
    for (const rule of Object.values(INFERRED_RULES)) {
      expect(resolveRule(rule, user)).toBe(true);
      expect(resolveRule(rule, anonymous)).toBe(false);
    }
  });

  it('never overwrites: an entity declared under any file name, or a file of the same name, is kept', async () => {
    const dir = await projectDir();
    const declared = '{ "name": "Task", "properties": { "title": { "type": "string" } } }';
    await writeFile(join(dir, 'entities', 'task-list.jsonc'), declared);
    await writeFile(join(dir, 'entities', 'Note.jsonc'), 'not even JSON');
    const note: InferredEntity = { name: 'Note', properties: { text: { type: 'string' } }, seenIn: [] };
    const { written, kept } = await writeInferredSchemas(join(dir, 'entities'), [task, note]);
    expect(written).toEqual([]);
    expect(kept).toEqual([join(dir, 'entities', 'task-list.jsonc'), join(dir, 'entities', 'Note.jsonc')]);
    expect(await readFile(join(dir, 'entities', 'task-list.jsonc'), 'utf8')).toBe(declared);
    expect(await readFile(join(dir, 'entities', 'Note.jsonc'), 'utf8')).toBe('not even JSON');
    expect((await readdir(join(dir, 'entities'))).sort()).toEqual(['Note.jsonc', 'task-list.jsonc']);
  });

  it('keeps what it wrote on a second run', async () => {
    const dir = await projectDir();
    await writeInferredSchemas(join(dir, 'entities'), [task]);
    const first = await readFile(join(dir, 'entities', 'Task.jsonc'), 'utf8');
    await writeFile(join(dir, 'entities', 'Task.jsonc'), `${first}// edited by hand\n`);
    const again = await writeInferredSchemas(join(dir, 'entities'), [{ ...task, properties: {} }]);
    expect(again).toEqual({ written: [], kept: [join(dir, 'entities', 'Task.jsonc')] });
    expect(await readFile(join(dir, 'entities', 'Task.jsonc'), 'utf8')).toContain('// edited by hand');
  });
});
