import { describe, expect, it } from 'vitest';
import { parseServerEnv } from './server-env';

describe('page log settings', () => {
  it('default to 90 days, 600 views per IP and minute, 1 s flushes and 20,000 waiting views', () => {
    expect(parseServerEnv({}, '/repo', 'a')).toMatchObject({
      APP_LOG_RETENTION_DAYS: 90,
      APP_LOG_RATE_LIMIT_PER_MINUTE: 600,
      APP_LOG_FLUSH_MS: 1000,
      APP_LOG_BUFFER_MAX: 20_000,
    });
  });

  it('read the environment and refuse values out of range, naming the variable', () => {
    expect(parseServerEnv({ APP_LOG_RETENTION_DAYS: '7' }, '/repo', 'a').APP_LOG_RETENTION_DAYS).toBe(7);
    expect(() => parseServerEnv({ APP_LOG_RETENTION_DAYS: '0' }, '/repo', 'a')).toThrow(
      /APP_LOG_RETENTION_DAYS/,
    );
    expect(() => parseServerEnv({ APP_LOG_BUFFER_MAX: '10' }, '/repo', 'a')).toThrow(/APP_LOG_BUFFER_MAX/);
    expect(() => parseServerEnv({ APP_LOG_FLUSH_MS: 'soon' }, '/repo', 'a')).toThrow(/APP_LOG_FLUSH_MS/);
  });
});
