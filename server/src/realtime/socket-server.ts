import type { Server as HttpServer } from 'node:http';
import { Server, type ServerOptions } from 'socket.io';
import { z } from 'zod';

const RoomSchema = z.string().min(1).max(256);

/** SocketServerOptions configures how events fan out; without an adapter, within this process only. */
export interface SocketServerOptions {
  adapter?: ServerOptions['adapter'];
}

/**
 * createSocketServer attaches socket.io where the SDK connects (WebSocket only, EIO4) and lets clients
 * join and leave rooms. Events reach them through the RealtimeHub.
 */
export function createSocketServer(httpServer: HttpServer, options: SocketServerOptions = {}): Server {
  const io = new Server(httpServer, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    serveClient: false,
    ...(options.adapter ? { adapter: options.adapter } : {}),
  });
  io.on('connection', (socket) => {
    // NB: the SDK sends `join` twice for one subscription; socket.io's join and leave are idempotent
    // (a room is a set), also with the Redis adapter, whose rooms are local to the instance.
    socket.on('join', (room: unknown) => {
      const parsed = RoomSchema.safeParse(room);
      if (parsed.success) void socket.join(parsed.data);
    });
    socket.on('leave', (room: unknown) => {
      const parsed = RoomSchema.safeParse(room);
      if (parsed.success) void socket.leave(parsed.data);
    });
  });
  return io;
}
