// What a connected socket no longer needs of its handshake, let go: otherwise each of thousands of sockets
// keeps its upgrade request for life (the request object, its headers, its URL twice over, the query), some
// 1.5 KB apiece. Realtime reads the handshake only in its connect middleware.
import type { IncomingMessage } from 'node:http';
import type { Server, Socket } from 'socket.io';

const UPGRADE_RESPONSE = Symbol('upgradeResponse');

/** The request engine.io answers an upgrade with: it holds the request until the connection closes. */
interface UpgradeResponse {
  req?: IncomingMessage;
}

type NotedRequest = IncomingMessage & { [UPGRADE_RESPONSE]?: UpgradeResponse };

/**
 * noteUpgradeResponses notes each handshake's response on its request (an engine.io middleware, the one
 * place that sees it), so releaseHandshake can cut the response's hold on the request.
 */
export function noteUpgradeResponses(io: Server): void {
  io.engine.use((request: NotedRequest, response: UpgradeResponse, next: () => void) => {
    request[UPGRADE_RESPONSE] = response;
    next();
  });
}

/**
 * detachedCopy is text as its own string: a value read from the query is a slice of the whole request URL,
 * and would keep it alive.
 */
export function detachedCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

// One empty object for every released handshake: nothing reads or writes a handshake after connect.
const RELEASED: Record<string, never> = Object.freeze({});

/** releaseHandshake drops socket's references to its upgrade request, once the connect middleware ran. */
export function releaseHandshake(socket: Socket): void {
  const connection = socket.conn as { request?: NotedRequest };
  const response = connection.request?.[UPGRADE_RESPONSE];
  if (response) response.req = undefined;
  connection.request = undefined;
  socket.handshake.headers = RELEASED;
  socket.handshake.url = '';
  socket.handshake.query = RELEASED;
  socket.handshake.auth = RELEASED;
  socket.handshake.time = '';
}
