import { describe, expect, it } from 'vitest';
import { readLoginParams, withoutMailedTokens } from './login-params';
import { initialView } from './login-view';

describe('readLoginParams and initialView', () => {
  it('opens sign-in and keeps from_url', () => {
    const params = readLoginParams('?from_url=https%3A%2F%2Fq.example%2Fx');
    expect(params).toEqual({ fromUrl: 'https://q.example/x', resetToken: null, inviteToken: null });
    expect(initialView(params)).toEqual({ step: 'sign-in' });
  });

  it('opens the reset or invite step for a mailed link', () => {
    expect(initialView(readLoginParams('?reset_token=r1'))).toEqual({ step: 'reset', token: 'r1' });
    expect(initialView(readLoginParams('?invite_token=i1&reset_token=r1'))).toEqual({
      step: 'invite',
      token: 'i1',
    });
    expect(initialView(readLoginParams('?reset_token='))).toEqual({ step: 'sign-in' });
  });
});

describe('withoutMailedTokens', () => {
  it('drops the single-use tokens only', () => {
    expect(withoutMailedTokens('?reset_token=r&from_url=%2Fx')).toBe('?from_url=%2Fx');
    expect(withoutMailedTokens('?invite_token=i')).toBe('');
  });
});
