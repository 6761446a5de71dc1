import type { Server as HttpServer } from 'node:http';
import type { Server } from 'socket.io';
import { createRedisFanout, type RealtimeLog, type RedisFanout } from './redis-adapter';
import { createSocketServer } from './socket-server';

/** RealtimeHub is how services send events to the sockets in a room, on every instance. */
export interface RealtimeHub {
  /**
   * publish emits event with payload to every socket in room, on this instance and (with REDIS_URL) on
   * every other instance. It never throws: realtime is best effort, the HTTP request is not.
   *
   * @example hub.publish(`entities:${appId}:Todo`, 'update', { type: 'create', data: record });
   */
  publish(room: string, event: string, payload: unknown): void;
}

/** Realtime owns the socket.io server, its fan-out and the hub feeding it. */
export interface Realtime {
  hub: RealtimeHub;
  /** mode is `single instance` or `Redis <host>:<port>`, for the start-up log. */
  mode: string;
  /** attach creates the socket.io server on httpServer; call it once. */
  attach(httpServer: HttpServer): Server;
  /** close disconnects the sockets and ends the Redis connections, within a bounded time. */
  close(): Promise<void>;
}

/** RealtimeOptions picks the fan-out: REDIS_URL for several instances, none for one. */
export interface RealtimeOptions {
  redisUrl?: string;
  log?: RealtimeLog;
}

const silent: RealtimeLog = { info: () => undefined, warn: () => undefined };

/**
 * createRealtime prepares realtime for this process. With a Redis URL, events published on any instance
 * reach sockets on all of them (socket.io Redis adapter); Redis trouble never blocks start-up or shutdown.
 */
export function createRealtime(options: RealtimeOptions = {}): Realtime {
  const log = options.log ?? silent;
  const fanout: RedisFanout | null = options.redisUrl ? createRedisFanout(options.redisUrl, log) : null;
  let io: Server | null = null;
  return {
    mode: fanout ? fanout.label : 'single instance',
    hub: {
      publish(room, event, payload) {
        if (!io) return;
        try {
          io.to(room).emit(event, payload);
        } catch (error) {
          log.warn({ room, event, err: error }, 'realtime publish failed');
        }
      },
    },
    attach(httpServer) {
      if (io) throw new Error('realtime is already attached to a server');
      io = createSocketServer(httpServer, { adapter: fanout?.adapter });
      return io;
    },
    async close() {
      if (io) {
        io.disconnectSockets(true);
        io.engine.close();
      }
      await fanout?.close();
    },
  };
}
