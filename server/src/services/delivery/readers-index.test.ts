import { describe, expect, it } from 'vitest';
import type { EntityDef, Project } from '../../project/project-loader';
import type { Caller } from '../../rules/caller';
import type { Rule } from '../../rules/rule-schema';
import { stripHidden } from '../../rules/read-scope';
import { visibleTo } from './entity-delivery';
import { readersOf } from './readers-index';
import type { IdentityGroup } from './room-groups';

const userOf = (email: string, role = 'user', custom: Record<string, unknown> = {}): Caller => ({
  kind: 'user',
  user: { id: `id-${email}`, email, role, full_name: '', custom },
});

const callers: Caller[] = [
  userOf('alice@x.test'),
  userOf('bob@x.test'),
  userOf('carol@x.test', 'admin'),
  userOf('dan@x.test', 'user', { team: 'red' }),
  { kind: 'anonymous' },
  { kind: 'service' },
];
const groupsOf = (list: Caller[]): IdentityGroup[] =>
  list.map((caller, index) => ({ caller, ids: [`s${index}`] }));

const records: Record<string, unknown>[] = [
  { id: '1', created_by: 'alice@x.test', text: 'a', code: '1' },
  { id: '2', created_by: 'bob@x.test', text: 'b', code: '2' },
  { id: '3', created_by: ['alice@x.test', 'bob@x.test'], text: 'shared' },
  { id: '4', created_by: ['bob@x.test', 'bob@x.test'], text: 'twice' },
  { id: '5', text: 'unowned' },
  { id: '6', created_by: null, team: 'red' },
  { id: '7', created_by: 7, team: ['red', 'blue'] },
  { id: '8', created_by: { email: 'alice@x.test' } },
];

const entityWith = (read: Rule): EntityDef => ({
  name: 'Note',
  required: [],
  properties: {
    text: { type: 'string' },
    code: { type: 'string', rls: { read: { created_by: '{{user.email}}' } } },
  },
  rls: { read },
});

/** expected is what visibleTo gives each group, one by one: the rule readersOf must keep. */
function expected(entity: EntityDef, groups: IdentityGroup[], record: Record<string, unknown>) {
  const project: Project = { name: 'p', dir: '/p', entities: new Map([['Note', entity]]), seeds: [] };
  return groups.flatMap((group) => {
    const data = visibleTo(project, { entity: 'Note', record }, group.caller);
    return data ? [[group.ids[0], data]] : [];
  });
}

function actual(entity: EntityDef, groups: IdentityGroup[], record: Record<string, unknown>) {
  return readersOf(groups, entity, record)
    .map(({ group, scope }) => [group.ids[0], scope ? stripHidden(record, scope) : record])
    .sort(([a], [b]) => String(a).localeCompare(String(b)));
}

describe('readersOf', () => {
  const rules: [string, Rule][] = [
    ['an owner equality (filed by value)', { created_by: '{{user.email}}' }],
    ['a field equality on a custom user field', { team: '{{user.data.team}}' }],
    [
      'owner or admin (checked on every record)',
      { $or: [{ created_by: '{{user.email}}' }, { user_condition: { role: 'admin' } }] },
    ],
    ['an owner $in list', { created_by: { $in: ['{{user.email}}', 'nobody'] } }],
    ['an open rule', {}],
    ['a closed rule', false],
  ];

  it.each(rules)('agrees with visibleTo for %s', (_name, rule) => {
    const entity = entityWith(rule);
    const groups = groupsOf(callers);
    for (const record of records)
      expect(actual(entity, groups, record)).toEqual(expected(entity, groups, record));
  });

  it('finds the owners of a record among 500 groups, and every owner of an array value once', () => {
    const entity = entityWith({ created_by: '{{user.email}}' });
    const many = groupsOf(Array.from({ length: 500 }, (_, index) => userOf(`u${index}@x.test`)));
    const owners = (record: Record<string, unknown>) =>
      readersOf(many, entity, record).map(({ group }) => group.ids[0]);
    expect(owners({ id: 'a', created_by: 'u7@x.test' })).toEqual(['s7']);
    expect(owners({ id: 'b', created_by: ['u1@x.test', 'u499@x.test', 'u1@x.test'] })).toEqual([
      's1',
      's499',
    ]);
    expect(owners({ id: 'c', created_by: 'stranger@x.test' })).toEqual([]);
  });

  it('resolves each group once per groups list and entity, and again for a new entity definition', () => {
    const entity = entityWith({ created_by: '{{user.email}}' });
    const groups = groupsOf(callers);
    const record = records[0] as Record<string, unknown>;
    const [first] = readersOf(groups, entity, record);
    expect(readersOf(groups, entity, record)[0]).toBe(first);
    const reloaded = entityWith({ created_by: '{{user.email}}' });
    const [again] = readersOf(groups, reloaded, record);
    expect(again).not.toBe(first);
    expect(again?.group).toBe(first?.group);
  });
});
