// The admin client against a real server: the test platform's own admin routes (listening on a port), and a
// bare HTTP server for the answers the platform does not give on demand (403, a body that is not JSON).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../test-support/build-test-platform';
import { adminPath, callAdminApi, refusedTokenMessage } from './admin-client';

const NamesSchema = z.object({ names: z.array(z.string()) });

describe('callAdminApi on the platform', () => {
  const test = useTestPlatform();
  let url = '';
  beforeAll(async () => {
    url = await test.app.listen({ port: 0, host: '127.0.0.1' });
  });
  const secrets = { method: 'GET', path: adminPath(TEST_APP_ID, 'secrets') } as const;

  it('answers with the parsed body when the service token is the server’s', async () => {
    const answer = await callAdminApi({ url, serviceToken: TEST_SERVICE_TOKEN }, secrets, NamesSchema);
    expect(answer).toEqual({ names: [] });
  });

  it('says the token was refused, naming the server, when it is not', async () => {
    const call = callAdminApi({ url, serviceToken: 'not-the-service-token' }, secrets, NamesSchema);
    await expect(call).rejects.toThrow(refusedTokenMessage(url));
    expect(refusedTokenMessage(url)).toContain(`The server at ${url} refused the service token`);
  });

  it('reports another error as its status and the server’s message', async () => {
    const missing = { method: 'DELETE', path: adminPath(TEST_APP_ID, 'secrets', 'NO_SUCH_SECRET') } as const;
    await expect(
      callAdminApi({ url, serviceToken: TEST_SERVICE_TOKEN }, missing, z.unknown()),
    ).rejects.toThrow(`404: App ${TEST_APP_ID} has no secret named NO_SUCH_SECRET`);
  });

  it('refuses an answer of another shape than the one expected', async () => {
    const call = callAdminApi(
      { url, serviceToken: TEST_SERVICE_TOKEN },
      secrets,
      z.object({ items: z.array(z.string()) }),
    );
    await expect(call).rejects.toThrow(
      /answered GET \/api\/apps\/route-tests\/admin\/secrets with an unexpected body: items:/,
    );
  });
});

describe('callAdminApi on a bare server', () => {
  let server: Server;
  let url = '';
  const seen: { authorization?: string | undefined; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ authorization: request.headers.authorization, body });
        const status = Number(request.url?.split('/').at(-1));
        response.writeHead(status, { 'content-type': 'text/plain' }).end('not JSON');
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  it('says the same for 403 as for 401, and sends the token and the JSON body', async () => {
    const admin = { url, serviceToken: 'the-token' };
    for (const status of [401, 403]) {
      const call = callAdminApi(
        admin,
        { method: 'PUT', path: `/status/${status}`, body: { a: 1 } },
        z.unknown(),
      );
      await expect(call).rejects.toThrow(refusedTokenMessage(url));
    }
    expect(seen.at(-1)).toEqual({ authorization: 'Bearer the-token', body: '{"a":1}' });
  });

  it('reports an error answer that is not JSON by its status', async () => {
    const call = callAdminApi(
      { url, serviceToken: 'the-token' },
      { method: 'GET', path: '/status/502' },
      z.unknown(),
    );
    await expect(call).rejects.toThrow('502: request failed');
  });
});
