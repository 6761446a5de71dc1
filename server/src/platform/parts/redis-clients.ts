// Redis's clients, imported by shared.ts only when REDIS_URL is set (ioredis and socket.io's Redis adapter
// are then loaded; a single instance starts without them).
export { createRateLimitRedis } from '../../lib/rate-limit-redis';
export { createRedisFanout } from '../../realtime/redis-adapter';
