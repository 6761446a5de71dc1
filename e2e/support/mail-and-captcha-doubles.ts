import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';

const listen = async (server: Server | ReturnType<typeof createHttpServer>) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

export interface SmtpDouble {
  url: string;
  /** messages holds each received message: envelope and raw DATA. */
  messages: { from: string; to: string[]; data: string }[];
  close(): Promise<void>;
}

/** startSmtpDouble runs a minimal plain SMTP server (no TLS, no auth) that keeps what it receives. */
export async function startSmtpDouble(): Promise<SmtpDouble> {
  const messages: SmtpDouble['messages'] = [];
  const server = createTcpServer((socket) => {
    let buffer = '';
    let inData = false;
    let envelope = { from: '', to: [] as string[] };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 double ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push({ ...envelope, data: buffer.slice(0, end) });
          buffer = buffer.slice(end + 5);
          inData = false;
          envelope = { from: '', to: [] };
          reply('250 queued');
          continue;
        }
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd < 0) return;
        const line = buffer.slice(0, lineEnd);
        buffer = buffer.slice(lineEnd + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') envelope.from = line;
        if (verb === 'RCPT') envelope.to.push(line);
        if (verb === 'DATA') inData = true;
        reply(verb === 'DATA' ? '354 go ahead' : verb === 'QUIT' ? '221 bye' : '250 ok');
        if (verb === 'QUIT') socket.end();
      }
    });
  });
  const port = await listen(server);
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface TurnstileDouble {
  url: string;
  /** requests holds each verification form the server posted. */
  requests: URLSearchParams[];
  close(): Promise<void>;
}

/** startTurnstileDouble answers like Cloudflare's siteverify: success only for the token `good-token`. */
export async function startTurnstileDouble(): Promise<TurnstileDouble> {
  const requests: URLSearchParams[] = [];
  const server = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      requests.push(form);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ success: form.get('response') === 'good-token' }));
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
