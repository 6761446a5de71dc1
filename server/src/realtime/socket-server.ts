import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { z } from 'zod';

const RoomSchema = z.string().min(1).max(256);

/**
 * createSocketServer attaches socket.io where the SDK connects (WebSocket only, EIO4) and lets clients
 * join and leave rooms. Nothing is emitted yet: entity events arrive with the realtime issue.
 */
export function createSocketServer(httpServer: HttpServer): Server {
  const io = new Server(httpServer, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    serveClient: false,
  });
  io.on('connection', (socket) => {
    // NB: the SDK sends `join` twice for one subscription; socket.io's join is idempotent.
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
