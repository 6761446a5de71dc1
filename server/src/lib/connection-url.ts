// Connection URLs carry credentials: logs and errors name a service by what these helpers return, never by
// the URL itself.

function hostAndPort(url: URL, defaultPort: number): string {
  // URL keeps IPv6 hosts in brackets already, so `host:port` stays unambiguous.
  const host = url.hostname === '' ? 'localhost' : url.hostname;
  return `${host}:${url.port === '' ? defaultPort : url.port}`;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * describeDatabaseUrl names a PostgreSQL connection as `PostgreSQL <host>:<port>/<database>`, without the
 * user, password or query parameters.
 *
 * @example describeDatabaseUrl('postgres://app:secret@db:5433/queen?sslmode=require') // 'PostgreSQL db:5433/queen'
 */
export function describeDatabaseUrl(databaseUrl: string): string {
  const url = parse(databaseUrl);
  if (!url) return 'PostgreSQL (unparsable URL)';
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return `PostgreSQL ${hostAndPort(url, 5432)}/${database === '' ? '(default database)' : database}`;
}

/**
 * describeRedisUrl names a Redis connection as `Redis <host>:<port>`, without the user, password or
 * database index.
 *
 * @example describeRedisUrl('redis://:secret@cache:6380/2') // 'Redis cache:6380'
 */
export function describeRedisUrl(redisUrl: string): string {
  const url = parse(redisUrl);
  if (!url) return 'Redis (unparsable URL)';
  return `Redis ${hostAndPort(url, 6379)}`;
}
