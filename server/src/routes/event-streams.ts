// The console's server-sent-events streams (the Logs page's live calls, the Agents page's test chat): one
// way to open one, feed it, keep it alive through proxies, and end it before the server closes.
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** HEARTBEAT_MS keeps an idle stream open through proxies that drop silent connections. */
const HEARTBEAT_MS = 25_000;
/** STREAM_BACKLOG_MAX ends a stream whose viewer reads slower than events arrive (bytes not yet sent). */
const STREAM_BACKLOG_MAX = 1 << 20;

/** sendEvent writes one event to raw, or ends the stream when its reader has fallen too far behind. */
export function sendEvent(raw: ServerResponse, event: string, data: string): void {
  if (raw.writableLength > STREAM_BACKLOG_MAX) return void raw.destroy();
  raw.write(`event: ${event}\ndata: ${data}\n\n`);
}

/**
 * createEventStreams returns start, which turns a reply into an open event stream (stop runs once it
 * closes); the streams still open are ended before the server closes, which would otherwise wait for them.
 */
export function createEventStreams(app: FastifyInstance) {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', (done) => {
    for (const stream of open) stream.end();
    done();
  });
  return {
    start(reply: FastifyReply, stop: () => void): void {
      const raw = reply.raw;
      reply.hijack();
      open.add(raw);
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      raw.write(': live\n\n');
      const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      raw.on('close', () => {
        clearInterval(heartbeat);
        stop();
        open.delete(raw);
      });
    },
  };
}
