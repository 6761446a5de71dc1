import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSignInStates, StateRefusedError, type SignInState } from './sign-in-state';

const STATE: SignInState = {
  app_id: 'app',
  provider: 'sso',
  from_url: 'https://app.example/home',
  code_verifier: 'v'.repeat(43),
  nonce: 'n0nce',
};

function states(now = () => 1_000) {
  const used = new Set<string>();
  const markUsed = (id: string) => {
    const free = !used.has(id);
    used.add(id);
    return Promise.resolve(free);
  };
  return createSignInStates({ key: randomBytes(32), markUsed, now, ttlMs: 600_000 });
}

const reason = (call: Promise<unknown>) =>
  call.then(
    () => 'taken',
    (error: unknown) => (error instanceof StateRefusedError ? error.reason : String(error)),
  );

describe('sign-in state', () => {
  it('gives the state back once, to the browser holding its cookie', async () => {
    const s = states();
    const { state, cookie } = s.issue(STATE);
    expect(state).not.toContain('v'.repeat(43));
    await expect(s.take(state, cookie)).resolves.toEqual(STATE);
    expect(await reason(s.take(state, cookie))).toBe('used_state');
  });

  it('refuses another browser, no cookie, an altered state and another key', async () => {
    const s = states();
    const { state, cookie } = s.issue(STATE);
    expect(await reason(s.take(state, undefined))).toBe('invalid_state');
    expect(await reason(s.take(state, `${cookie}x`))).toBe('invalid_state');
    expect(await reason(s.take(`${state.slice(0, -2)}AA`, cookie))).toBe('invalid_state');
    expect(await reason(s.take('garbage', cookie))).toBe('invalid_state');
    expect(await reason(states().take(state, cookie))).toBe('invalid_state');
    // A refused attempt did not use the state up.
    await expect(s.take(state, cookie)).resolves.toEqual(STATE);
  });

  it('refuses a state older than its TTL', async () => {
    let time = 1_000;
    const s = states(() => time);
    const { state, cookie } = s.issue(STATE);
    time += 600_000;
    expect(await reason(s.take(state, cookie))).toBe('expired_state');
  });
});
