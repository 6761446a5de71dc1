import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** TINY_PNG is a valid 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** ProviderRequest is one request the double received. */
export interface ProviderRequest {
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/** ImageProviderDouble is a local stand-in for the OpenAI images API. */
export interface ImageProviderDouble {
  url: string;
  requests: ProviderRequest[];
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * startImageProviderDouble serves `POST /v1/images/generations`. The prompt picks the behaviour: one
 * containing `fail` gets HTTP 500, `hang` never gets an answer, `url` gets a `data[0].url` answer,
 * anything else a b64 PNG.
 */
export async function startImageProviderDouble(): Promise<ImageProviderDouble> {
  const requests: ProviderRequest[] = [];
  const hanging = new Set<() => void>();
  let server: Server;
  const ready = new Promise<string>((resolveUrl) => {
    server = createServer((request, response) => {
      if (request.method === 'GET' && request.url === '/files/tiny.png') {
        response.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG);
        return;
      }
      void readJson(request).then((body) => {
        requests.push({ authorization: request.headers.authorization, body });
        const prompt = String(body.prompt);
        if (prompt.includes('hang')) {
          hanging.add(() => response.destroy());
          return;
        }
        if (prompt.includes('fail')) {
          response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
          return;
        }
        const data = prompt.includes('url')
          ? [{ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/files/tiny.png` }]
          : [{ b64_json: TINY_PNG.toString('base64') }];
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ created: 1, data }));
      });
    });
    server.listen(0, '127.0.0.1', () => {
      resolveUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/images/generations`);
    });
  });
  const url = await ready;
  return {
    url,
    requests,
    async close() {
      for (const release of hanging) release();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
}
