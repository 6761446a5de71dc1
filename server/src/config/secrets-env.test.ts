import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseServerEnv } from './server-env';

describe('SECRETS_KEY and INTEGRATION_SECRET_*', () => {
  it('takes a 32-byte key as base64 or hex, unset by default', () => {
    const raw = randomBytes(32);
    expect(parseServerEnv({}, '/repo', 'a').SECRETS_KEY).toBeUndefined();
    expect(parseServerEnv({ SECRETS_KEY: raw.toString('base64') }, '/repo', 'a').SECRETS_KEY).toBe(
      raw.toString('base64'),
    );
    expect(parseServerEnv({ SECRETS_KEY: raw.toString('hex') }, '/repo', 'a').SECRETS_KEY).toBe(
      raw.toString('hex'),
    );
  });

  it('names SECRETS_KEY and says what is wrong, without echoing the value', () => {
    const short = randomBytes(20).toString('base64');
    let message = '';
    try {
      parseServerEnv({ SECRETS_KEY: short }, '/repo', 'a');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/SECRETS_KEY: must be 32 bytes/);
    expect(message).not.toContain(short);
    expect(() => parseServerEnv({ SECRETS_KEY: 'correct horse battery' }, '/repo', 'a')).toThrow(
      /SECRETS_KEY: must be 32 bytes written as 64 hex digits or base64/,
    );
  });

  it('collects INTEGRATION_SECRET_<NAME> variables by name', () => {
    const config = parseServerEnv(
      { INTEGRATION_SECRET_GITHUB_TOKEN: 'ghp_x', INTEGRATION_SECRET_EMPTY: '', INTEGRATION_SECRET_bad: 'y' },
      '/repo',
      'a',
    );
    expect(config.INTEGRATION_SECRETS).toEqual({ GITHUB_TOKEN: 'ghp_x' });
  });
});
