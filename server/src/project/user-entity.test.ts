import { describe, expect, it } from 'vitest';
import type { Caller } from '../rules/caller';
import { resolveRule } from '../rules/resolve-rule';
import {
  builtInUserEntity,
  customFieldsProblem,
  MAX_CUSTOM_USER_BYTES,
  MAX_CUSTOM_USER_FIELDS,
} from './user-entity';

const user = builtInUserEntity({ properties: { nickname: { type: 'string' } }, required: [] });
const caller = (id: string, role = 'user'): Caller => ({
  kind: 'user',
  user: { id, email: `${id}@x.test`, role, full_name: '', custom: {} },
});

describe('the built-in User rules', () => {
  it('resolve to every user for admins and the service role, to themself for anyone else', () => {
    expect(resolveRule(user.rls.read, caller('root', 'admin'))).toBe(true);
    expect(resolveRule(user.rls.read, { kind: 'service' })).toBe(true);
    expect(resolveRule(user.rls.read, caller('u1'))).toEqual({ id: { $eq: 'u1' } });
    expect(resolveRule(user.rls.read, { kind: 'anonymous' })).toBe(false);
  });

  it('keep the built-in fields over custom ones of the same name', () => {
    const odd = builtInUserEntity({ properties: { role: { type: 'integer' } }, required: [] });
    expect(odd.properties.role).toEqual({ type: 'string', enum: ['admin', 'user'] });
  });
});

describe('customFieldsProblem', () => {
  const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i]));

  it(`caps the count at ${MAX_CUSTOM_USER_FIELDS} and the size at ${MAX_CUSTOM_USER_BYTES} bytes`, () => {
    expect(customFieldsProblem({}, fields(MAX_CUSTOM_USER_FIELDS))).toBeNull();
    expect(customFieldsProblem({}, fields(MAX_CUSTOM_USER_FIELDS + 1))).toContain(
      `at most ${MAX_CUSTOM_USER_FIELDS} custom fields`,
    );
    expect(customFieldsProblem({}, { bio: 'x'.repeat(MAX_CUSTOM_USER_BYTES) })).toContain('at most 64 KB');
    expect(customFieldsProblem({}, { bio: 'x'.repeat(1000) })).toBeNull();
  });

  it('lets a user already over a cap write what does not grow the fields', () => {
    const over = fields(MAX_CUSTOM_USER_FIELDS + 5);
    expect(customFieldsProblem(over, { ...over, f0: 1 })).toBeNull();
    expect(customFieldsProblem(over, { ...over, extra: 1 })).toContain('custom fields');
  });
});
