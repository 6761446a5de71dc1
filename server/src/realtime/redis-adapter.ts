import { createAdapter } from '@socket.io/redis-adapter';
import { Redis, type RedisOptions } from 'ioredis';
import { describeRedisUrl } from '../lib/connection-url';

/** RealtimeLog is the part of a pino logger realtime uses. */
export interface RealtimeLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** RedisFanout is the socket.io Redis adapter with the two connections behind it. */
export interface RedisFanout {
  adapter: ReturnType<typeof createAdapter>;
  /** label is `Redis <host>:<port>`, for logs (no credentials). */
  label: string;
  /** connected says whether both connections are up (events from other instances are arriving). */
  connected(): boolean;
  /** close ends both connections within timeoutMs, even while Redis is unreachable. */
  close(timeoutMs?: number): Promise<void>;
}

/** reconnectDelay backs off 100 ms, 200 ms, … up to 5 s between reconnection attempts, forever. */
export function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 100, 5_000);
}

/**
 * createRedisFanout connects the publisher and subscriber ioredis clients and builds the socket.io
 * adapter on them. It does not wait for Redis: while Redis is down, events reach only this instance's
 * sockets and the HTTP API is unaffected.
 */
export function createRedisFanout(
  redisUrl: string,
  log: RealtimeLog,
  prefix = 'queen-realtime',
): RedisFanout {
  const label = describeRedisUrl(redisUrl);
  const common: RedisOptions = { retryStrategy: reconnectDelay, connectionName: 'queen-realtime' };
  // The publisher fails a command after one reconnection attempt instead of queueing it for long: a
  // realtime event that cannot be sent now is not worth sending late.
  const pub = new Redis(redisUrl, { ...common, maxRetriesPerRequest: 1 });
  // The subscriber only ever sends its subscriptions: keep them queued until Redis is back.
  const sub = new Redis(redisUrl, { ...common, maxRetriesPerRequest: null });

  for (const [role, client] of [
    ['publisher', pub],
    ['subscriber', sub],
  ] as const) {
    let down = false;
    // NB: an ioredis client without an `error` listener crashes the process when Redis is unreachable.
    client.on('error', (error: Error & { code?: string }) => {
      if (down) return;
      down = true;
      log.warn(
        { redis: label, role, reason: error.code ?? error.message },
        'Redis unreachable: realtime events reach this instance only until it is back',
      );
    });
    client.on('ready', () => {
      if (!down) return;
      down = false;
      log.info({ redis: label, role }, 'Redis reachable again');
    });
  }

  // The adapter fires commands (publish, psubscribe, …) without awaiting them; while Redis is down they
  // reject, and an unhandled rejection would end the process. Callers that await still see the rejection;
  // the error listener above already reports the outage.
  for (const client of [pub, sub]) {
    const send = client.sendCommand.bind(client);
    client.sendCommand = (...args: Parameters<typeof send>) => {
      const sent = send(...args);
      if (sent instanceof Promise) sent.catch(() => undefined);
      return sent;
    };
  }

  return {
    adapter: createAdapter(pub, sub, { key: prefix }),
    label,
    connected: () => pub.status === 'ready' && sub.status === 'ready',
    async close(timeoutMs = 2_000) {
      const quit = (client: Redis) =>
        client.status === 'ready' ? client.quit().then(() => undefined) : Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolveDeadline) => {
        timer = setTimeout(resolveDeadline, timeoutMs);
      });
      await Promise.race([Promise.allSettled([quit(pub), quit(sub)]), deadline]);
      clearTimeout(timer);
      // disconnect also stops any pending reconnection, so no timer keeps the process alive.
      pub.disconnect();
      sub.disconnect();
    },
  };
}
