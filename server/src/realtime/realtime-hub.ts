import type { Server as HttpServer } from 'node:http';
import type { Server } from 'socket.io';
import type { RealtimeLog, RedisFanout } from './redis-adapter';
import { createSocketServer, type SocketData, type SocketServerOptions } from './socket-server';

/** RealtimeHub is how services send events to the sockets in a room, on every instance. */
export interface RealtimeHub {
  /**
   * publish emits event with payload to every socket in room, on this instance and (with REDIS_URL) on
   * every other instance. It never throws: realtime is best effort, the HTTP request is not.
   *
   * @example hub.publish(`entities:${appId}:Todo`, 'update', { type: 'create', data: record });
   */
  publish(room: string, event: string, payload: unknown): void;
  /**
   * dispatch runs the handler registered for name with payload on this instance and (with REDIS_URL) on
   * every other one, so each instance can filter for its own sockets. It never throws.
   */
  dispatch(name: string, payload: unknown): void;
  /** handle registers the handler dispatch runs for name (one per name). */
  handle(name: string, handler: (payload: unknown) => void): void;
  /** localMembers returns the sockets in room connected to this instance, as ids and handshake state. */
  localMembers(room: string): RoomMember[];
  /** localSockets returns every socket connected to this instance (for background identity checks). */
  localSockets(): RoomMember[];
  /** onMembershipChange registers listener, told the room whenever a local socket joins or leaves it. */
  onMembershipChange(listener: (room: string) => void): void;
  /** sendTo emits event with payload to the given sockets of this instance, encoding it once for all. */
  sendTo(socketIds: string[], event: string, payload: unknown): void;
}

/**
 * RoomMember is a socket as services see it: its id (for sendTo) and the state its handshake left, which
 * a service may refresh (identity, admitted, checkedAt). Services never hold socket.io objects.
 */
export interface RoomMember {
  id: string;
  data: SocketData;
}

/** Realtime owns the socket.io server, its fan-out and the hub feeding it. */
export interface Realtime {
  hub: RealtimeHub;
  /** mode is `single instance` or `Redis <host>:<port>`, for the start-up log. */
  mode: string;
  /** peersInSync says whether dispatches from other instances are arriving (always, for one instance). */
  peersInSync(): boolean;
  /** attach creates the socket.io server on httpServer, identify resolving each handshake; call it once. */
  attach(httpServer: HttpServer, options?: AttachOptions): Server;
  /** close disconnects the sockets and ends the Redis connections, within a bounded time. */
  close(): Promise<void>;
}

/** AttachOptions are how handshakes are identified and which rooms sockets may join. */
export type AttachOptions = Pick<
  SocketServerOptions,
  'identify' | 'rooms' | 'maxRooms' | 'handshakes' | 'maxSockets'
>;

/** RealtimeOptions picks the fan-out: REDIS_URL for several instances, none for one. */
export interface RealtimeOptions {
  /** fanout is the Redis adapter (createRedisFanout) with REDIS_URL; none for one instance. */
  fanout?: RedisFanout | null;
  log?: RealtimeLog;
}

const silent: RealtimeLog = { info: () => undefined, warn: () => undefined };

/**
 * createRealtime prepares realtime for this process. With a Redis URL, events published on any instance
 * reach sockets on all of them (socket.io Redis adapter); Redis trouble never blocks start-up or shutdown.
 */
export function createRealtime(options: RealtimeOptions = {}): Realtime {
  const log = options.log ?? silent;
  const fanout = options.fanout ?? null;
  let io: Server | null = null;
  const handlers = new Map<string, (payload: unknown) => void>();
  const membershipListeners: ((room: string) => void)[] = [];
  const membershipChanged = (room: unknown) => {
    if (typeof room !== 'string') return;
    for (const listener of membershipListeners) listener(room);
  };
  const run = (name: string, payload: unknown) => {
    try {
      handlers.get(name)?.(payload);
    } catch (error) {
      log.warn({ event: name, err: error }, 'realtime handler failed');
    }
  };
  return {
    mode: fanout ? fanout.label : 'single instance',
    peersInSync: () => fanout?.connected() ?? true,
    hub: {
      dispatch(name, payload) {
        run(name, payload);
        if (!io || !fanout) return;
        try {
          // Other instances only: serverSideEmit does not loop back to this one.
          io.serverSideEmit(name, payload);
        } catch (error) {
          log.warn({ event: name, err: error }, 'realtime dispatch to other instances failed');
        }
      },
      handle(name, handler) {
        const known = handlers.has(name);
        handlers.set(name, handler);
        if (io && !known) io.on(name, (payload: unknown) => run(name, payload));
      },
      localMembers(room) {
        if (!io) return [];
        const ids = io.of('/').adapter.rooms.get(room);
        if (!ids) return [];
        const members: RoomMember[] = [];
        for (const id of ids) {
          const socket = io.of('/').sockets.get(id);
          if (socket) members.push({ id, data: socket.data as SocketData });
        }
        return members;
      },
      onMembershipChange(listener) {
        membershipListeners.push(listener);
      },
      localSockets() {
        if (!io) return [];
        const members: RoomMember[] = [];
        for (const [id, socket] of io.of('/').sockets) members.push({ id, data: socket.data as SocketData });
        return members;
      },
      sendTo(socketIds, event, payload) {
        if (!io || socketIds.length === 0) return;
        try {
          io.local.to(socketIds).emit(event, payload);
        } catch (error) {
          log.warn({ event, err: error }, 'realtime send failed');
        }
      },
      publish(room, event, payload) {
        if (!io) return;
        try {
          io.to(room).emit(event, payload);
        } catch (error) {
          log.warn({ room, event, err: error }, 'realtime publish failed');
        }
      },
    },
    attach(httpServer, attachOptions = {}) {
      if (io) throw new Error('realtime is already attached to a server');
      const server = createSocketServer(httpServer, {
        ...attachOptions,
        adapter: fanout?.adapter,
      });
      // serverSideEmit from another instance arrives as a server-level event.
      for (const name of handlers.keys()) server.on(name, (payload: unknown) => run(name, payload));
      // The adapter (in memory, or Redis's, which keeps rooms per instance) says when local rooms change;
      // a disconnect leaves each of its rooms.
      const adapter = server.of('/').adapter;
      adapter.on('join-room', membershipChanged);
      adapter.on('leave-room', membershipChanged);
      io = server;
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
