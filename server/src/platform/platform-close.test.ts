import { once } from 'node:events';
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type TestPlatform } from '../test-support/build-test-platform';

// A shutdown must not wait on a client: a body still arriving holds its request open until the request
// deadline (30 s here), past the 10 s after which a signal's shutdown ends the process with PGlite open.
describe('platform close', () => {
  let platform: TestPlatform;
  // Built in a hook (its timeout allows a busy machine): the test's own 20 s is for the close.
  beforeAll(async () => {
    platform = await buildTestPlatform({ REQUEST_TIMEOUT_MS: '30000' });
  });

  it('closes connections still busy after the grace period, then the database', async () => {
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    const address = platform.app.server.address();
    if (!address || typeof address !== 'object') throw new Error('not listening');

    const socket = connect(address.port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      'POST /api/apps/route-tests/entities/Todo HTTP/1.1\r\nHost: localhost\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title":',
    );
    const ended = once(socket, 'close');
    // Let the server start reading the body before it is told to close.
    await new Promise((resolve) => setTimeout(resolve, 200));

    await platform.dispose({ graceMs: 100 });
    await ended;
    expect(socket.destroyed).toBe(true);
    // The database closed: a query on it now fails.
    await expect(platform.database.db.query('select 1')).rejects.toThrow();
  }, 20_000);
});
