import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as connect } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { createSocketServer, mayJoin, type RoomFamily, type SocketData } from './socket-server';

describe('mayJoin', () => {
  const joiner = { appId: 'app', identity: null };
  const rooms: RoomFamily[] = [
    { prefix: 'entities:', mayJoin: ({ appId }, room) => room === `entities:${appId}:Todo` },
  ];

  it('lets a registered family decide its own rooms, and refuses any room without a family', async () => {
    const conversations: RoomFamily = {
      prefix: 'conversations:',
      mayJoin: ({ appId }, room) => room === `conversations:${appId}:c1`,
    };
    expect(await mayJoin(joiner, 'conversations:app:c1', [...rooms, conversations])).toBe(true);
    expect(await mayJoin(joiner, 'conversations:app:c2', [...rooms, conversations])).toBe(false);
    expect(await mayJoin(joiner, 'conversations:app:c1', rooms)).toBe(false);
    expect(await mayJoin(joiner, 'entities:app:Todo')).toBe(false);
  });

  it('hands the family the socket’s identity, and a family that fails admits nothing', async () => {
    const owned: RoomFamily = {
      prefix: 'conversations:',
      mayJoin: async ({ identity }, room) => room === `conversations:app:${String(identity)}`,
    };
    expect(await mayJoin({ appId: 'app', identity: 'u1' }, 'conversations:app:u1', [owned])).toBe(true);
    expect(await mayJoin({ appId: 'app', identity: 'u2' }, 'conversations:app:u1', [owned])).toBe(false);
    const failing: RoomFamily = { prefix: 'x:', mayJoin: () => Promise.reject(new Error('down')) };
    expect(await mayJoin(joiner, 'x:1', [failing])).toBe(false);
  });
});

describe('createSocketServer', () => {
  it('keeps what a socket needs of its upgrade request (app id, token), not the request itself', async () => {
    const httpServer = createServer();
    const io = createSocketServer(httpServer);
    await new Promise<void>((listening) => httpServer.listen(0, '127.0.0.1', listening));
    const { port } = httpServer.address() as AddressInfo;
    const connected = new Promise<{ request: unknown; data: SocketData }>((resolve) =>
      io.on('connection', (socket) =>
        resolve({ request: socket.conn.request, data: socket.data as SocketData }),
      ),
    );
    const client = connect(`http://127.0.0.1:${port}`, {
      path: '/ws-user-apps/socket.io/',
      transports: ['websocket'],
      reconnection: false,
      query: { app_id: 'app-1', token: 'token-1' },
    });
    try {
      const { request, data } = await connected;
      expect(request).toBeNull();
      expect(data).toMatchObject({ appId: 'app-1', token: 'token-1', admitted: true });
    } finally {
      client.disconnect();
      await io.close();
    }
  });
});
