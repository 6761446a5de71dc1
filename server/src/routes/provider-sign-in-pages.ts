// The pages external sign-in answers with: a provider that is not offered, and the popup's hand-over of the
// token to the app that opened it (at exactly the origin the sign-in started from, under a strict CSP).
import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../lib/html-escape';
import { sendHtmlPage } from './html-page';

/** unavailablePage says sign-in with providerName is not offered here, with a way back and to e-mail sign-in. */
export function unavailablePage(reply: FastifyReply, status: number, providerName: string, back: string) {
  const login = `/login?from_url=${encodeURIComponent(back)}`;
  return sendHtmlPage(
    reply,
    status,
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in with ${escapeHtml(providerName)} is not available</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.5rem;color:#1c1c1c}
a{color:#5b3cc4}h1{font-size:1.4rem}</style></head>
<body><main><h1>Sign-in with ${escapeHtml(providerName)} is not available here</h1>
<p>This app does not offer sign-in with ${escapeHtml(providerName)}. You can sign in with your e-mail address instead.</p>
<p><a href="${escapeHtml(login)}">Sign in with e-mail</a> · <a href="${escapeHtml(back)}">Back to the app</a></p>
</main></body></html>
`,
  );
}

/** failurePage says why a sign-in did not complete (message is the error answer's), with ways on. */
export function failurePage(reply: FastifyReply, status: number, message: string) {
  return sendHtmlPage(
    reply,
    status,
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in did not complete</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.5rem;color:#1c1c1c}
a{color:#5b3cc4}h1{font-size:1.4rem}</style></head>
<body><main><h1>Sign-in did not complete</h1>
<p role="alert">${escapeHtml(message)}</p>
<p><a href="/">Back to the app</a> · <a href="/login">Sign in with e-mail</a></p>
</main></body></html>
`,
  );
}

/** scriptJson is JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * popupPage posts `{access_token, is_new_user}` to the window that opened the popup, only if it is at
 * origin; its one script runs by nonce. The SDK closes the popup once it has the message (it checks that
 * the message comes from its popup, which a popup that closed itself at once no longer is); the page
 * closes itself only if nobody did within 3 s.
 */
export function popupPage(
  reply: FastifyReply,
  origin: string,
  message: { access_token: string; is_new_user: boolean },
) {
  const nonce = randomBytes(16).toString('base64');
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return sendHtmlPage(
    reply,
    200,
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signed in</title></head>
<body><p>Signed in: you can close this window.</p>
<script nonce="${nonce}">
if (window.opener) window.opener.postMessage(${scriptJson(message)}, ${scriptJson(origin)});
setTimeout(function () { window.close(); }, 3000);
</script></body></html>
`,
    csp,
  );
}
