import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

/** UpstreamCall is one request the double received. */
export interface UpstreamCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface UpstreamDouble {
  /** origin is `http://127.0.0.1:<port>`; hostPort is what OUTBOUND_PRIVATE_HOSTS lists to trust it. */
  origin: string;
  hostPort: string;
  calls: UpstreamCall[];
  close(): Promise<void>;
}

/**
 * startUpstreamDouble runs a small REST API on 127.0.0.1 for custom integrations to call: `/repos/{o}/{r}`
 * echoes what it was asked (GET) or sent (POST …/issues, 201), `/missing` answers 404, `/broken` 503,
 * `/slow` answers after slowMs, `/text` plain text.
 */
export async function startUpstreamDouble(slowMs = 5000): Promise<UpstreamDouble> {
  const calls: UpstreamCall[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://double');
      calls.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const json = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify(value));
      };
      const repo = /^\/repos\/([^/]+)\/([^/]+)(\/issues)?$/.exec(url.pathname);
      if (repo && request.method === 'GET') {
        return json(200, {
          owner: decodeURIComponent(repo[1] ?? ''),
          repo: decodeURIComponent(repo[2] ?? ''),
          query: Object.fromEntries(url.searchParams),
        });
      }
      if (repo?.[3] && request.method === 'POST') return json(201, { created: JSON.parse(body || 'null') });
      if (url.pathname === '/missing') return json(404, { message: 'Not Found' });
      if (url.pathname === '/broken') return json(503, { message: 'upstream is down' });
      if (url.pathname === '/slow') {
        const timer = setTimeout(() => json(200, { late: true }), slowMs);
        response.on('close', () => clearTimeout(timer));
        return;
      }
      if (url.pathname === '/text') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        return response.end('hello from upstream');
      }
      json(404, { message: `no route ${url.pathname}` });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
