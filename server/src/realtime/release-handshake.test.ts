import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Socket as ServerSocket } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createSocketServer, type SocketData } from './socket-server';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

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
  let request: WeakRef<IncomingMessage> | undefined;
  io.engine.use((req: IncomingMessage, _res: unknown, next: () => void) => {
    request = new WeakRef(req);
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
  return { io, client, server: await connected, request: () => request?.deref() };
}

describe('releaseHandshake', () => {
  it('lets the upgrade request go once the socket is connected, keeping what realtime reads', async () => {
    const { server, request } = await connectedPair();
    const data = server.data as SocketData;
    expect(data).toMatchObject({ appId: 'app', token: TOKEN, identity: 'user-1', admitted: true });
    expect(server.handshake).toMatchObject({ headers: {}, url: '', query: {}, time: '' });
    expect(server.conn.request).toBeUndefined();
    // Nothing else holds it either (engine.io's upgrade response did, until its connection closed). A deref
    // keeps its target alive to the end of the task, so each collection runs in a task of its own first.
    let released = false;
    for (let attempt = 0; attempt < 10 && !released; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 10));
      released = request() === undefined;
    }
    expect(released).toBe(true);
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
