import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscoveries, DISCOVERY_CACHE_MS } from './oidc-client';

// The discovery cache against a real HTTP server: one read per hour per provider and credentials, and a
// failed read is tried again at the next sign-in.
let server: Server;
let issuer = '';
let reads = 0;
let failing = false;

beforeAll(async () => {
  server = createServer((request, response) => {
    reads += 1;
    if (failing) return void response.writeHead(503).end();
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token` }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('discovery cache', () => {
  it('reads a document once per hour per credentials, and retries a failed read', async () => {
    let now = 0;
    const discoveries = createDiscoveries(() => now);
    const url = new URL(`${issuer}/.well-known/openid-configuration`);
    reads = 0;
    const first = await discoveries.discover(url, 'client', 'secret');
    expect(await discoveries.discover(url, 'client', 'secret')).toBe(first);
    expect(reads).toBe(1);
    await discoveries.discover(url, 'client', 'another secret');
    expect(reads).toBe(2);
    now += DISCOVERY_CACHE_MS + 1;
    failing = true;
    await expect(discoveries.discover(url, 'client', 'secret')).rejects.toThrow(/discovery document/);
    failing = false;
    expect((await discoveries.discover(url, 'client', 'secret')).serverMetadata().issuer).toBe(issuer);
    expect(reads).toBe(4);
  });
});
