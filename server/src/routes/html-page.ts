// The small pages the server answers with itself (a finished connect, a failed sign-in): no script, a strict
// CSP, never cached or framed, no Referer passed on.
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../lib/html-escape';

/** PAGE_CSP allows the inline style and nothing else. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** sendHtmlPage sends html with the headers every such page has (csp: a page with a nonce'd script). */
export function sendHtmlPage(reply: FastifyReply, status: number, html: string, csp = PAGE_CSP) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** messagePage is a page with a heading and one paragraph (both plain text, escaped here). */
export function messagePage(title: string, message: string, role: 'status' | 'alert' = 'status'): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.5rem;color:#1c1c1c}
h1{font-size:1.4rem}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>
<p role="${role}">${escapeHtml(message)}</p>
</main></body></html>
`;
}
