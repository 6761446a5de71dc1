import type { FastifyReply, FastifyRequest } from 'fastify';
import { createCompressionMemo, negotiateEncoding } from './compression';

// Sending an HTML page from memory, shared by our own site's routes and a hosted app's (routes/site*.ts).

/** HTML_HEADERS are the headers of every HTML page served from memory (never cached without a check). */
export const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  vary: 'Accept-Encoding',
};

/** HtmlSender sends html with status and HTML_HEADERS (plus headers), compressed as the client accepts. */
export type HtmlSender = (
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  html: string,
  headers: Record<string, string>,
) => FastifyReply;

/** createHtmlSender returns an HtmlSender that compresses each distinct page once (a small memo). */
export function createHtmlSender(): HtmlSender {
  const compress = createCompressionMemo(32);
  return (request, reply, status, html, headers) => {
    reply.code(status).headers({ ...HTML_HEADERS, ...headers });
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') return reply.send(html);
    return reply.header('content-encoding', encoding).send(compress(html, encoding));
  };
}

/** sendUnbuilt answers 503 when SITE_DIST holds no build, saying how to make one. */
export function sendUnbuilt(reply: FastifyReply) {
  return reply
    .code(503)
    .type('text/plain; charset=utf-8')
    .send('The site has not been built: run `npm run build`, then restart the server.');
}
