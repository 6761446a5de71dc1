import { createServer, type Server } from 'node:http';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OutboundLimitError,
  OutboundRefusedError,
  createPublicFetch,
  isLocalName,
  isPublicAddress,
} from './public-fetch';

const LIMITS = { maxBytes: 1024, timeoutMs: 2000 };

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '::1',
    '::ffff:127.0.0.1',
    'fd00::1',
    'fe80::1',
    'not-an-ip',
    // Not global unicast (2000::/3) although ipaddr.js calls them unicast: IPv4-compatible, NAT64, ::/8.
    '::7f00:1',
    '::a00:1',
    '64:ff9b::a00:1',
    '100::1',
    '2001:db8::1',
    '2002:7f00:1::',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('isLocalName', () => {
  it.each(['localhost', 'LOCALHOST.', 'localhost..', 'app.localhost', 'A.LocalHost.'])(
    '%s is local',
    (name) => {
      expect(isLocalName(name)).toBe(true);
    },
  );
  it.each(['localhost.example.com', 'notlocalhost', 'example.com'])('%s is not', (name) => {
    expect(isLocalName(name)).toBe(false);
  });
});

describe('createPublicFetch', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/big') return response.end('x'.repeat(5000));
      if (request.url === '/slow') return setTimeout(() => response.end('late'), 5000).unref();
      if (request.url === '/to-private') {
        response.writeHead(302, { location: `http://127.0.0.1:${port}/hello` });
        return response.end();
      }
      if (request.url === '/to-self') {
        response.writeHead(302, { location: '/hello' });
        return response.end();
      }
      response.end(`hello ${request.method}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  it.each([
    'http://127.0.0.1/',
    'http://10.0.0.8/x',
    'http://[::1]/',
    'http://[::ffff:7f00:1]/',
    'http://localhost/',
    'http://169.254.169.254/latest/meta-data',
    'http://2130706433/',
    'file:///etc/passwd',
    'ftp://example.com/',
    'http://user:pass@example.com/',
    'not a url',
  ])('refuses %s before connecting', async (url) => {
    await expect(createPublicFetch()({ url, ...LIMITS })).rejects.toBeInstanceOf(OutboundRefusedError);
  });

  it('refuses a host name that resolves to a private address', async () => {
    const name = hostname();
    const resolved = await lookup(name).catch(() => null);
    if (!resolved || isPublicAddress(resolved.address)) return; // this machine's name is public: nothing to check
    await expect(createPublicFetch()({ url: `http://${name}:${port}/`, ...LIMITS })).rejects.toBeInstanceOf(
      OutboundRefusedError,
    );
  });

  it('fetches a host the operator trusts, and follows its redirects', async () => {
    const fetchPublic = createPublicFetch({ allowedPrivateHosts: [`127.0.0.1:${port}`] });
    const answer = await fetchPublic({ url: `http://127.0.0.1:${port}/to-self`, ...LIMITS });
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('hello GET');
    const posted = await fetchPublic({
      url: `http://127.0.0.1:${port}/`,
      method: 'POST',
      body: 'x',
      ...LIMITS,
    });
    expect(posted.body.toString()).toBe('hello POST');
  });

  it('refuses a redirect to a private address it does not trust', async () => {
    const fetchPublic = createPublicFetch({ allowedPrivateHosts: [`localhost:${port}`] });
    await expect(
      fetchPublic({ url: `http://localhost:${port}/to-private`, ...LIMITS }),
    ).rejects.toBeInstanceOf(OutboundRefusedError);
  });

  it('stops reading past the size cap and past the deadline', async () => {
    const fetchPublic = createPublicFetch({ allowedPrivateHosts: [`127.0.0.1:${port}`] });
    await expect(fetchPublic({ url: `http://127.0.0.1:${port}/big`, ...LIMITS })).rejects.toMatchObject({
      reason: 'size',
    });
    const slow = fetchPublic({ url: `http://127.0.0.1:${port}/slow`, maxBytes: 1024, timeoutMs: 200 });
    await expect(slow).rejects.toBeInstanceOf(OutboundLimitError);
    await expect(slow).rejects.toMatchObject({ reason: 'timeout' });
  });
});
