// The stores of @fastify/rate-limit are plain CommonJS constructors without their own typings.
declare module '@fastify/rate-limit/store/*.js' {
  import type { Redis } from 'ioredis';

  interface StoreCount {
    current: number;
    ttl: number;
  }
  type StoreCallback = (error: Error | null, result: StoreCount | null) => void;

  interface RateLimitStore {
    incr(key: string, callback: StoreCallback, timeWindowMs: number, max: number): void;
  }

  interface RateLimitStoreCtor {
    new (
      continueExceeding: boolean,
      exponentialBackoff: boolean,
      cacheOrRedis?: number | Redis,
      prefix?: string,
    ): RateLimitStore;
  }

  const Store: RateLimitStoreCtor;
  export default Store;
}
