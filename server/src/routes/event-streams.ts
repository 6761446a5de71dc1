// The console's server-sent-events streams (the Logs page's live calls, the Agents page's test chat): one
// way to open one, feed it, keep it alive through proxies, and end it before the server closes.
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { TooManyRequestsError } from '../lib/errors';

/** HEARTBEAT_MS keeps an idle stream open through proxies that drop silent connections. */
const HEARTBEAT_MS = 25_000;
/** STREAM_BACKLOG_MAX ends a stream whose viewer reads slower than events arrive (bytes not yet sent). */
const STREAM_BACKLOG_MAX = 1 << 20;
/**
 * STREAMS_PER_HOLDER bounds one caller's open streams of one kind on an instance (an admin's tabs, say), so
 * no single caller takes every slot of the instance's own bound.
 */
export const STREAMS_PER_HOLDER = 20;

/** sendEvent writes one event to raw, or ends the stream when its reader has fallen too far behind. */
export function sendEvent(raw: ServerResponse, event: string, data: string): void {
  if (raw.writableLength > STREAM_BACKLOG_MAX) return void raw.destroy();
  raw.write(`event: ${event}\ndata: ${data}\n\n`);
}

/**
 * createEventStreams returns admit, which names the caller (an admin user, or null for the service role) as
 * a holder and refuses it (429) when it already holds perHolder streams, and start, which turns a reply into an open event stream of that holder (stop runs
 * once it closes); the streams still open are ended before the server closes, which would otherwise wait
 * for them.
 */
export function createEventStreams(app: FastifyInstance, perHolder = STREAMS_PER_HOLDER) {
  const open = new Set<ServerResponse>();
  const held = new Map<string, number>();
  app.addHook('preClose', (done) => {
    for (const stream of open) stream.end();
    done();
  });
  return {
    admit(caller: { id: string } | null): string {
      const holder = caller?.id ?? 'service role';
      if ((held.get(holder) ?? 0) >= perHolder) {
        throw new TooManyRequestsError(`At most ${perHolder} live streams each: close one and try again`, 30);
      }
      return holder;
    },
    start(reply: FastifyReply, holder: string, stop: () => void): void {
      const raw = reply.raw;
      reply.hijack();
      open.add(raw);
      held.set(holder, (held.get(holder) ?? 0) + 1);
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
        const left = (held.get(holder) ?? 1) - 1;
        if (left > 0) held.set(holder, left);
        else held.delete(holder);
      });
    },
  };
}
