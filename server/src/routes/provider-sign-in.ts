// Where the SDK's `loginWithProvider` sends the browser: `/api/apps/auth/login` (Google),
// `/api/apps/auth/<provider>/login` and `/api/apps/<appId>/auth/sso/login`. No external provider is enabled
// on this server yet, so the visitor gets a readable page that says so, with a way back and a way to sign
// in with e-mail, instead of a raw JSON 404 (issue 19, point 5).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { escapeHtml } from '../lib/html-escape';
import { returnTargetOf } from './request-origin';

/** ProviderSignInDeps are where a visitor may be sent back to: our origin and the operator's list. */
export interface ProviderSignInDeps {
  publicUrl?: string | undefined;
  returnOrigins?: readonly string[] | undefined;
}

const QuerySchema = z.object({ from_url: z.string().max(4096).optional() });
const ProviderSchema = z.object({ provider: z.string().regex(/^[a-z0-9-]{1,40}$/) });

/** PROVIDER_NAMES are how the page names the providers Base44 apps offer. */
const PROVIDER_NAMES: Record<string, string> = {
  google: 'Google',
  microsoft: 'Microsoft',
  facebook: 'Facebook',
  apple: 'Apple',
  github: 'GitHub',
  sso: 'single sign-on',
};

function page(providerName: string, back: string): string {
  const login = `/login?from_url=${encodeURIComponent(back)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in with ${escapeHtml(providerName)} is not available</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.5rem;color:#1c1c1c}
a{color:#5b3cc4}h1{font-size:1.4rem}</style></head>
<body><main><h1>Sign-in with ${escapeHtml(providerName)} is not available here</h1>
<p>This server does not offer sign-in with ${escapeHtml(providerName)}. You can sign in with your e-mail address instead.</p>
<p><a href="${escapeHtml(login)}">Sign in with e-mail</a> · <a href="${escapeHtml(back)}">Back to the app</a></p>
</main></body></html>
`;
}

/** registerProviderSignInRoutes answers the SDK's provider sign-in paths with a page (501). */
export function registerProviderSignInRoutes(app: FastifyInstance, deps: ProviderSignInDeps): void {
  const answer = (request: FastifyRequest, reply: FastifyReply, provider: string) => {
    const query = QuerySchema.safeParse(request.query);
    const fromUrl = query.success ? query.data.from_url : undefined;
    const back = returnTargetOf(request, fromUrl, deps.publicUrl, deps.returnOrigins);
    const name = Object.hasOwn(PROVIDER_NAMES, provider) ? (PROVIDER_NAMES[provider] as string) : provider;
    return reply
      .code(501)
      .header('cache-control', 'no-store')
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      )
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(page(name, back));
  };
  app.get('/api/apps/auth/login', (request, reply) => answer(request, reply, 'google'));
  app.get('/api/apps/auth/:provider/login', (request, reply) => {
    const params = ProviderSchema.safeParse(request.params);
    return answer(request, reply, params.success ? params.data.provider : 'this provider');
  });
  app.get('/api/apps/:appId/auth/sso/login', (request, reply) => answer(request, reply, 'sso'));
}
