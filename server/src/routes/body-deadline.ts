import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// A request body must keep arriving: it gets graceMs, plus the time its bytes so far earn at
// minBytesPerSecond. A flat deadline would cut a 50 MB upload on a slow link; none at all let a stalled
// body hold its connection for minutes (Fastify 5 sets Node's requestTimeout to 0).

/** BodyDeadline is REQUEST_TIMEOUT_MS and REQUEST_MIN_BYTES_PER_SECOND. */
export interface BodyDeadline {
  graceMs: number;
  minBytesPerSecond: number;
}

/** allowedMs is how long a body that has sent `received` bytes may have taken so far. */
export function allowedMs(deadline: BodyDeadline, received: number): number {
  return deadline.graceMs + (received / deadline.minBytesPerSecond) * 1000;
}

function hasBody(request: FastifyRequest): boolean {
  const { headers } = request;
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** cut answers 408 (when nothing was answered yet) and closes the connection. */
function cut(request: FastifyRequest, reply: FastifyReply, deadline: BodyDeadline): void {
  const socket = request.raw.socket;
  request.log.info({ received: socket.bytesRead }, 'request body too slow: connection closed');
  if (!reply.raw.headersSent) {
    const seconds = Math.round(deadline.graceMs / 1000);
    const body = JSON.stringify({
      message: `The request body arrived too slowly: send it within ${seconds} s, at ${Math.round(deadline.minBytesPerSecond / 1024)} KiB/s or more for a large one`,
    });
    reply.raw.writeHead(408, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    reply.raw.end(body);
  }
  // The client may never read the answer: its connection ends either way.
  setTimeout(() => socket.destroy(), 1000).unref();
  socket.end();
}

/**
 * registerBodyDeadline watches every request that has a body until the body has arrived; one of a stated
 * length answered before its body arrived (a 404, a refusal) closes its connection, so the rest cannot
 * trickle in for ever.
 */
export function registerBodyDeadline(app: FastifyInstance, deadline: BodyDeadline): void {
  app.addHook('onSend', async (request, reply) => {
    // Only a body of a stated length: a chunked one may be a stream the client cannot stop writing into
    // once its connection is gone (the server reads and drops the rest instead, within the deadline).
    const stated = request.headers['content-length'] !== undefined;
    if (stated && !request.raw.complete) reply.header('connection', 'close');
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!hasBody(request)) return done();
    const { raw } = request;
    const socket = raw.socket;
    const startBytes = socket.bytesRead;
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      if (raw.complete || socket.destroyed) return;
      const wait = allowedMs(deadline, socket.bytesRead - startBytes) - (Date.now() - started);
      if (wait > 0) {
        timer = setTimeout(check, wait).unref();
        return;
      }
      cut(request, reply, deadline);
    };
    timer = setTimeout(check, deadline.graceMs).unref();
    // An answer, a finished body or a closed connection: nothing left to watch.
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  });
}
