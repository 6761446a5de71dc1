import type { Server } from 'node:http';
import type { IsTrusted } from './client-address';

// One address may hold at most max TCP connections: the next is answered 429 and closed before its
// request is read. A trusted proxy's connections carry many clients, so they are not counted here (the
// per-IP request limits see the forwarded address).

const refusal = (max: number) => {
  const body = JSON.stringify({
    message: `Too many open connections from your address (at most ${max}): close some, then retry`,
  });
  return [
    'HTTP/1.1 429 Too Many Requests',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Retry-After: 1',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
};

/** capConnectionsPerIp counts the server's open connections per peer address and refuses beyond max. */
export function capConnectionsPerIp(server: Server, max: number, isTrusted: IsTrusted): void {
  const open = new Map<string, number>();
  const answer = refusal(max);
  // Before Node's own listener, so a refused connection's request never reaches the app.
  server.prependListener('connection', (socket) => {
    const peer = socket.remoteAddress;
    if (!peer || isTrusted(peer, 0)) return;
    const count = open.get(peer) ?? 0;
    if (count >= max) {
      // Closed as soon as the answer is out: nothing it sends is read.
      socket.on('error', () => socket.destroy());
      socket.write(answer, () => socket.destroy());
      return;
    }
    open.set(peer, count + 1);
    // `on`, not `once`: 'close' comes once anyway, and `once` keeps a wrapper and its state per connection.
    socket.on('close', () => {
      const left = (open.get(peer) ?? 1) - 1;
      if (left > 0) open.set(peer, left);
      else open.delete(peer);
    });
  });
}
