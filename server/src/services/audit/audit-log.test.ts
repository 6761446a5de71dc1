import { describe, expect, it } from 'vitest';
import { scrub } from './audit-log';

describe('audit log scrub', () => {
  it('drops every field whose name may hold a credential, at any depth', () => {
    expect(
      scrub({
        email: 'a@example.test',
        role: 'admin',
        password: 'x',
        value: 'sk-1',
        api_key: 'k',
        nested: { token: 't', kept: 1, deeper: { client_secret: 's', name: 'n' } },
        list: ['a'],
      }),
    ).toEqual({
      email: 'a@example.test',
      role: 'admin',
      nested: { kept: 1, deeper: { name: 'n' } },
      list: ['a'],
    });
    expect(scrub(undefined)).toBeNull();
  });
});
