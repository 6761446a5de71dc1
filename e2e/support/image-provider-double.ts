import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProviderDouble {
  url: string;
  requests: number;
  close(): Promise<void>;
}

/** startFailingImageProvider runs a local stand-in for an OpenAI-compatible images API that always fails. */
export async function startFailingImageProvider(): Promise<ProviderDouble> {
  const double = { url: '', requests: 0, close: async () => {} };
  const server: Server = createServer((request, response) => {
    double.requests += 1;
    request.resume();
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'the model is on fire' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  double.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/images/generations`;
  double.close = () => new Promise((resolve) => server.close(() => resolve()));
  return double;
}
