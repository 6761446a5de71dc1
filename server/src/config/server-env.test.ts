import { describe, expect, it } from 'vitest';
import { DEFAULT_FRAME_ANCESTORS } from '../lib/content-security-policy';
import { parseServerEnv } from './server-env';

const root = '/repo';

describe('parseServerEnv', () => {
  it('applies defaults', () => {
    const config = parseServerEnv({}, root, 'site-app');
    expect(config.PORT).toBe(8080);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.APP_ID).toBe('site-app');
    expect(config.SITE_DIST).toBe('/repo/site/dist');
    expect(config.IMAGE_MODEL).toBe('gpt-image-1');
    expect(config.IMAGE_PROVIDER_TIMEOUT_MS).toBe(60_000);
    expect(config.DATA_DIR.startsWith('/')).toBe(true);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATABASE_POOL_SIZE).toBe(10);
    expect(config.DATABASE_QUERY_TIMEOUT_MS).toBe(5_000);
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.REDIS_PREFIX).toBe('queen-realtime');
  });

  it('reads the entity read cache settings', () => {
    expect(parseServerEnv({}, root, 'a')).toMatchObject({ READ_CACHE: 'auto', READ_CACHE_MB: 16 });
    expect(parseServerEnv({ READ_CACHE: 'on', READ_CACHE_MB: '256' }, root, 'a')).toMatchObject({
      READ_CACHE: 'on',
      READ_CACHE_MB: 256,
    });
    expect(() => parseServerEnv({ READ_CACHE: 'yes' }, root, 'a')).toThrow(/READ_CACHE/);
    expect(() => parseServerEnv({ READ_CACHE_MB: '0' }, root, 'a')).toThrow(/READ_CACHE_MB/);
  });

  it('reads the frame ancestors of the site as a CSP source list', () => {
    expect(parseServerEnv({}, root, 'a').FRAME_ANCESTORS).toBe(DEFAULT_FRAME_ANCESTORS);
    expect(
      parseServerEnv({ FRAME_ANCESTORS: "'self', https://*.base44.com http://127.0.0.1:3000" }, root, 'a')
        .FRAME_ANCESTORS,
    ).toBe("'self' https://*.base44.com http://127.0.0.1:3000");
    expect(() => parseServerEnv({ FRAME_ANCESTORS: 'https://a.com; script-src *' }, root, 'a')).toThrow(
      /FRAME_ANCESTORS/,
    );
  });

  it('takes a Redis prefix of safe characters only', () => {
    expect(parseServerEnv({ REDIS_PREFIX: 'site-b:prod' }, root, 'a').REDIS_PREFIX).toBe('site-b:prod');
    expect(() => parseServerEnv({ REDIS_PREFIX: 'has space' }, root, 'a')).toThrow(/REDIS_PREFIX/);
  });

  it('reads the scale-out URLs', () => {
    const config = parseServerEnv(
      {
        DATABASE_URL: 'postgresql://u:p@db:5432/queen',
        REDIS_URL: 'rediss://cache:6380',
        DATABASE_POOL_SIZE: '4',
      },
      root,
      'a',
    );
    expect(config.DATABASE_URL).toBe('postgresql://u:p@db:5432/queen');
    expect(config.REDIS_URL).toBe('rediss://cache:6380');
    expect(config.DATABASE_POOL_SIZE).toBe(4);
  });

  it('reads explicit values', () => {
    const config = parseServerEnv(
      { PORT: '9000', APP_ID: 'other-app', PUBLIC_URL: 'https://x.example/path', LOG_LEVEL: 'warn' },
      root,
      'site-app',
    );
    expect(config.PORT).toBe(9000);
    expect(config.APP_ID).toBe('other-app');
    expect(config.PUBLIC_URL).toBe('https://x.example');
    expect(config.LOG_LEVEL).toBe('warn');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_URL', 'not a url'],
    ['IMAGE_PROVIDER', 'ftp://x'],
    ['IMAGE_PROVIDER_TIMEOUT_MS', '-5'],
    ['APP_ID', 'bad id!'],
    ['DATABASE_URL', 'mysql://db/x'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_QUERY_TIMEOUT_MS', '50'],
    ['DATABASE_QUERY_TIMEOUT_MS', '1.5'],
    ['REDIS_URL', 'http://cache:6379'],
  ])('names %s when it is invalid', (name, value) => {
    expect(() => parseServerEnv({ [name]: value }, root, 'a')).toThrow(name);
  });
});

describe('limits and proxies', () => {
  it('defaults to no trusted proxy and bounded limits', () => {
    expect(parseServerEnv({}, root, 'a')).toMatchObject({
      TRUST_PROXY: false,
      INTEGRATION_RATE_LIMIT_PER_MINUTE: 30,
      INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: 20,
      RATE_LIMIT_MAX_KEYS: 10_000,
      REALTIME_MAX_ROOMS_PER_SOCKET: 100,
    });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['0', false],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, loopback,::1', ['10.0.0.0/8', 'loopback', '::1']],
    ['fd00::/8', ['fd00::/8']],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(parseServerEnv({ TRUST_PROXY: value }, root, 'a').TRUST_PROXY).toEqual(expected);
  });

  it.each(['yes', '10.0.0.0/33', 'evil.example', '1.2.3.4/8/9', '', ' , '])(
    'refuses TRUST_PROXY=%j (blank is the default)',
    (value) => {
      if (value === '')
        return expect(parseServerEnv({ TRUST_PROXY: value }, root, 'a').TRUST_PROXY).toBe(false);
      expect(() => parseServerEnv({ TRUST_PROXY: value }, root, 'a')).toThrow(/TRUST_PROXY/);
    },
  );

  it('names a bad integration limit', () => {
    expect(() => parseServerEnv({ INTEGRATION_RATE_LIMIT_PER_MINUTE: '0' }, root, 'a')).toThrow(
      /INTEGRATION_RATE_LIMIT_PER_MINUTE/,
    );
  });
});
