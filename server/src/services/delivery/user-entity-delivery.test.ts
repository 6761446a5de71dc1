import { describe, expect, it } from 'vitest';
import type { Caller } from '../../rules/caller';
import type { Project } from '../../project/project-loader';
import { builtInUserEntity, USER_ENTITY } from '../../project/user-entity';
import { visibleTo } from './entity-delivery';

const user = builtInUserEntity({ properties: { nickname: { type: 'string' } }, required: [] });
const project: Project = { name: 'p', dir: '/p', entities: new Map([[USER_ENTITY, user]]), seeds: [] };
const record = { id: 'u1', email: 'alice@x.test', role: 'user', nickname: 'Al' };
const caller = (id: string, role = 'user'): Caller => ({
  kind: 'user',
  user: { id, email: `${id}@x.test`, role, full_name: '', custom: {} },
});

describe('realtime delivery of the built-in User entity', () => {
  it('deliver a user record to that user, admins and the service role only', () => {
    const event = { entity: USER_ENTITY, record };
    expect(visibleTo(project, event, caller('u1'))).toEqual(record);
    expect(visibleTo(project, event, caller('root', 'admin'))).toEqual(record);
    expect(visibleTo(project, event, { kind: 'service' })).toEqual(record);
    expect(visibleTo(project, event, caller('u2'))).toBeNull();
    expect(visibleTo(project, event, { kind: 'anonymous' })).toBeNull();
  });
});
