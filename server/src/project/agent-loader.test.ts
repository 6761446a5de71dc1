// Agent files and skills: the e2e fixture loads as apps write it (unknown keys kept), and each kind of
// mistake stops the start naming the file and the key.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempProjects } from '../test-support/temp-project';
import { loadAgents, splitFrontMatter } from './agent-loader';
import { loadProject } from './project-loader';

const FIXTURE = resolve(import.meta.dirname, '../../../e2e/fixtures/agents/base44');
const shown = (file: string) => file.split('/').slice(-2).join('/');
const entities = new Map([['Task', { name: 'Task', properties: {}, required: [], rls: {} }]]);
const projectWith = useTempProjects('agents');
const agent = (fields: object) => JSON.stringify({ name: 'helper', instructions: 'Help.', ...fields });

describe('loadAgents', () => {
  it('loads the fixture: tools resolved, skills selected, every key of the file kept', async () => {
    const project = await loadProject(FIXTURE);
    const helper = project.agents?.agents.get('task_helper');
    expect(helper).toMatchObject({
      description: 'Keeps your task list',
      model: 'automatic',
      skills: ['tone'],
      tools: [
        { kind: 'entity', entity: 'Task', operations: ['create', 'read', 'update', 'delete'] },
        { kind: 'entity', entity: 'Announcement', operations: ['create'] },
        { kind: 'function', function: 'whoami', description: 'Tells who the user is' },
      ],
    });
    expect(helper?.definition).toMatchObject({
      whatsapp_greeting: 'Hi! I keep your tasks.',
      memory_config: { enabled: false },
      custom_key_apps_add: { kept: true },
    });
    expect(project.agents?.skills.get('tone')).toEqual({
      name: 'tone',
      description: 'How to word replies',
      body: 'Answer in one short sentence. Never use exclamation marks.',
    });
  });

  it('matches entity names without regard to case, and a project without agents has none', async () => {
    const dir = await projectWith({
      'agents/a.jsonc': agent({
        tool_configs: [{ entity_name: 'task', allowed_operations: ['read', 'read'] }],
      }),
    });
    const loaded = await loadAgents(dir, 'agents', entities, shown);
    expect(loaded.agents.get('helper')?.tools).toEqual([
      { kind: 'entity', entity: 'Task', operations: ['read'] },
    ]);
    expect((await loadAgents(await projectWith({}), 'agents', entities, shown)).agents.size).toBe(0);
  });

  it.each([
    [
      'an entity the project lacks',
      { 'agents/a.jsonc': agent({ tool_configs: [{ entity_name: 'Nope', allowed_operations: ['read'] }] }) },
      'agents/a.jsonc: tool_configs.0.entity_name: the project has no entity "Nope"',
    ],
    [
      'an unknown operation',
      { 'agents/a.jsonc': agent({ tool_configs: [{ entity_name: 'Task', allowed_operations: ['drop'] }] }) },
      'agents/a.jsonc: tool_configs.0',
    ],
    [
      'a name apps do not write',
      { 'agents/a.jsonc': agent({ name: 'Has Spaces' }) },
      'agents/a.jsonc: name: must be 1–100 lowercase',
    ],
    [
      'a name declared twice',
      { 'agents/a.jsonc': agent({}), 'agents/b.jsonc': agent({}) },
      'agents/b.jsonc: name: agent "helper" is declared twice',
    ],
    [
      'a skill that does not exist',
      { 'agents/a.jsonc': agent({ selected_skill_names: ['ghost'] }) },
      'agents/a.jsonc: selected_skill_names: no skill "ghost"',
    ],
    [
      'a skill without front matter',
      { 'agent-skills/s.md': 'just text' },
      'agent-skills/s.md: must start with front matter',
    ],
    [
      'a skill without a description',
      { 'agent-skills/s.md': '---\nname: s\n---\nbody' },
      'agent-skills/s.md front matter: description',
    ],
    [
      'a skill body over 15,000 characters',
      { 'agent-skills/s.md': `---\ndescription: d\n---\n${'x'.repeat(15_001)}` },
      'agent-skills/s.md: the body must be at most 15000 characters',
    ],
    ['invalid JSONC', { 'agents/a.jsonc': '{ "name": ' }, 'agents/a.jsonc: invalid JSONC at line 1'],
  ])('stops on %s, naming the file and key', async (_case, files, message) => {
    await expect(loadAgents(await projectWith(files), 'agents', entities, shown)).rejects.toThrow(message);
  });
});

describe('splitFrontMatter', () => {
  it('separates YAML front matter from the body, and finds none without it', () => {
    expect(splitFrontMatter('---\ndescription: d\n---\nbody\n')).toEqual({
      front: 'description: d',
      body: 'body\n',
    });
    expect(splitFrontMatter('---\r\ndescription: d\r\n---\r\nbody')).toEqual({
      front: 'description: d',
      body: 'body',
    });
    expect(splitFrontMatter('body only')).toBeNull();
  });
});
