import { describe, expect, it } from 'vitest';
import { parseServerEnv } from './server-env';

const parse = (env: NodeJS.ProcessEnv) => parseServerEnv(env, '/repo', 'app');

describe('FILE_STORAGE', () => {
  it('is disk by default and postgres by default with DATABASE_URL', () => {
    expect(parse({}).FILE_STORAGE).toBeUndefined();
    expect(parse({}).FILE_MAX_MB).toBe(50);
    expect(parse({}).FILE_SIGNED_URL_MAX_S).toBe(604800);
  });

  it('refuses postgres without DATABASE_URL, naming why (file bytes never go to PGlite)', () => {
    expect(() => parse({ FILE_STORAGE: 'postgres' })).toThrow(/FILE_STORAGE: postgres needs DATABASE_URL/);
    expect(() => parse({ FILE_STORAGE: 'postgres', DATABASE_URL: 'postgres://u@h/db' })).not.toThrow();
  });

  it('refuses s3 without S3_BUCKET and an unknown driver', () => {
    expect(() => parse({ FILE_STORAGE: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => parse({ FILE_STORAGE: 'ftp' })).toThrow(/FILE_STORAGE/);
  });
});
