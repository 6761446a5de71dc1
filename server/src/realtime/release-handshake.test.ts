import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket as ServerSocket } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createSocketServer, type SocketData } from './socket-server';

// NB: no `--expose-gc` here: V8's flags are the process's, and the unit tests share one process.
const TOKEN = `eyJ.${'x'.repeat(200)}.sig`;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connectedPair() {
  const http = createServer();
  const io = createSocketServer(http, {
    identify: async () => ({ identity: 'user-1', admitted: true }),
    rooms: [{ prefix: 'entities:', mayJoin: () => true }],
  });
  // engine.io's answer to the upgrade, which holds the request for as long as the connection lives.
  let response: { req?: IncomingMessage } | undefined;
  io.engine.use((_req: IncomingMessage, res: { req?: IncomingMessage }, next: () => void) => {
    response = res;
    next();
  });
  const connected = new Promise<ServerSocket>((resolve) => io.on('connection', resolve));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const client: ClientSocket = connect(`http://127.0.0.1:${port}`, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    query: { app_id: 'app', token: TOKEN },
  });
  cleanups.push(() => {
    client.close();
    return new Promise<void>((resolve) => io.close(() => resolve()));
  });
  return { io, client, server: await connected, response: () => response };
}

describe('releaseHandshake', () => {
  it('lets the upgrade request go once the socket is connected, keeping what realtime reads', async () => {
    const { server, response } = await connectedPair();
    const data = server.data as SocketData;
    expect(data).toMatchObject({ appId: 'app', token: TOKEN, identity: 'user-1', admitted: true });
    expect(server.handshake).toMatchObject({ headers: {}, url: '', query: {}, auth: {}, time: '' });
    // One shared empty object, not three per socket.
    expect(server.handshake.query).toBe(server.handshake.headers);
    expect(server.conn.request).toBeUndefined();
    // The upgrade's response no longer holds it either (it did until the connection closed).
    expect(response()).toBeDefined();
    expect(response()?.req).toBeUndefined();
  });

  it('leaves the socket joining rooms and receiving events', async () => {
    const { io, client, server } = await connectedPair();
    client.emit('join', 'entities:app:Todo');
    await expect.poll(() => server.rooms.has('entities:app:Todo')).toBe(true);
    const received = new Promise((resolve) => client.once('update_model', resolve));
    io.to('entities:app:Todo').emit('update_model', { room: 'entities:app:Todo', data: '{}' });
    expect(await received).toEqual({ room: 'entities:app:Todo', data: '{}' });
  });
});
