import { describe, expect, it } from 'vitest';
import { describeDatabaseUrl, describeRedisUrl } from './connection-url';

describe('describeDatabaseUrl', () => {
  it.each([
    ['postgres://postgres@127.0.0.1:5432/postgres', 'PostgreSQL 127.0.0.1:5432/postgres'],
    ['postgresql://app:s3cret@db.internal/queen?sslmode=require', 'PostgreSQL db.internal:5432/queen'],
    ['postgres://u:p@[::1]:6543/x', 'PostgreSQL [::1]:6543/x'],
    ['postgres://u:p@host', 'PostgreSQL host:5432/(default database)'],
    ['postgres://u:p@host/my%20db', 'PostgreSQL host:5432/my db'],
    ['not a url with s3cret', 'PostgreSQL (unparsable URL)'],
  ])('describes %s without credentials', (input, expected) => {
    const described = describeDatabaseUrl(input);
    expect(described).toBe(expected);
    expect(described).not.toContain('s3cret');
  });
});

describe('describeRedisUrl', () => {
  it.each([
    ['redis://127.0.0.1:6379', 'Redis 127.0.0.1:6379'],
    ['redis://:s3cret@cache:6380/2', 'Redis cache:6380'],
    ['rediss://user:s3cret@cache.example', 'Redis cache.example:6379'],
    ['s3cret', 'Redis (unparsable URL)'],
  ])('describes %s without credentials', (input, expected) => {
    const described = describeRedisUrl(input);
    expect(described).toBe(expected);
    expect(described).not.toContain('s3cret');
  });
});
