// The console's event streams: one holder (a caller) holds at most perHolder open streams; a stream that
// closes frees its slot; other holders are not affected.
import Fastify from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TooManyRequestsError } from '../lib/errors';
import { createEventStreams } from './event-streams';

const app = Fastify();
let base = '';

beforeAll(async () => {
  // The app's error handler maps the domain error to 429; this one does the same for this error alone.
  app.setErrorHandler((error, _request, reply) =>
    reply.code(error instanceof TooManyRequestsError ? 429 : 500).send({ message: String(error) }),
  );
  const streams = createEventStreams(app, 2);
  app.get('/live/:holder', async (request, reply) => {
    const { holder: id } = request.params as { holder: string };
    streams.start(reply, streams.admit({ id }), () => undefined);
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
});

/** open starts a stream of holder and answers its status and how to close it. */
async function open(holder: string) {
  const controller = new AbortController();
  const response = await fetch(`${base}/live/${holder}`, { signal: controller.signal });
  return { status: response.status, close: () => controller.abort() };
}

it('refuses a holder past its bound (429) until one of its streams closes; others are not affected', async () => {
  const first = await open('alice');
  const second = await open('alice');
  expect([first.status, second.status]).toEqual([200, 200]);
  const third = await open('alice');
  expect(third.status).toBe(429);
  expect((await open('bob')).status).toBe(200);
  first.close();
  await expect
    .poll(async () => {
      const again = await open('alice');
      if (again.status === 200) again.close();
      return again.status;
    })
    .toBe(200);
});
