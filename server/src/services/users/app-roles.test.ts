import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lib/errors';
import { builtInUserEntity } from '../../project/user-entity';
import { appRolesOf } from './app-roles';

const declaring = (roles: string[], fallback?: string) =>
  builtInUserEntity(undefined, { type: 'string', enum: roles, ...(fallback ? { default: fallback } : {}) });

describe('appRolesOf', () => {
  it('is admin and user, default user, without a project or a declaration', () => {
    for (const entity of [undefined, builtInUserEntity()]) {
      expect(appRolesOf(entity)).toMatchObject({ roles: ['admin', 'user'], defaultRole: 'user' });
    }
  });

  it.each([
    [['admin', 'leader', 'pastor', 'user'], 'user', ['admin', 'leader', 'pastor', 'user'], 'user'],
    [['admin', 'student'], 'student', ['admin', 'student'], 'student'],
    // admin is the operator role of every app, declared or not.
    [['leader', 'member'], 'member', ['leader', 'member', 'admin'], 'member'],
    // No default: user when declared, else the first non-admin role.
    [['admin', 'leader', 'user'], undefined, ['admin', 'leader', 'user'], 'user'],
    [['admin', 'student', 'teacher'], undefined, ['admin', 'student', 'teacher'], 'student'],
    // A default of admin would make every stranger an operator: never applied.
    [['admin', 'student'], 'admin', ['admin', 'student'], 'student'],
    [['admin'], 'admin', ['admin', 'user'], 'user'],
  ])('%j with default %s: roles %j, new users get %s', (declared, fallback, roles, defaultRole) => {
    expect(appRolesOf(declaring(declared, fallback))).toMatchObject({ roles, defaultRole });
  });

  it('requireRole admits the app’s roles and refuses others with an error naming role', () => {
    const roles = appRolesOf(declaring(['admin', 'student'], 'student'));
    expect(roles.requireRole('student')).toBe('student');
    expect(roles.requireRole('admin')).toBe('admin');
    for (const other of ['user', 'leader', 'Student']) {
      expect(() => roles.requireRole(other)).toThrow(InvalidInputError);
      expect(() => roles.requireRole(other)).toThrow(/^role: .*"admin", "student"/);
    }
  });
});
