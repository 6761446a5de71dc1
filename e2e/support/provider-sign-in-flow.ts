import type { TestProvider } from './oidc-provider';
import type { RunningServer } from './server-process';

// Drives an external sign-in as a browser would, with plain fetch: redirects followed by hand, one cookie
// jar per browser (cookies kept by host), through oidc-provider's dev login form.

/** CookieJar is a browser's cookies, by host then name. */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  header(url: string): string {
    const jar = this.byHost.get(new URL(url).host);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
  }

  keep(url: string, response: Response): void {
    const host = new URL(url).host;
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/max-age=0/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.byHost.set(host, jar);
  }
}

/** visit GETs (or POSTs a form to) url with jar's cookies, without following redirects. */
export async function visit(jar: CookieJar, url: string, form?: Record<string, string>): Promise<Response> {
  const headers: Record<string, string> = { cookie: jar.header(url), accept: 'text/html' };
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: form ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  jar.keep(url, response);
  return response;
}

function locationOf(response: Response, base: string): string {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect from ${base}, got ${response.status}`);
  return new URL(location, base).href;
}

/**
 * startSignIn opens our login path and returns the provider URL it redirects to (or the refusal response);
 * the jar gets our state cookie.
 */
export async function startSignIn(
  server: RunningServer,
  jar: CookieJar,
  path: string,
): Promise<{ refused?: Response; providerUrl?: string }> {
  const response = await visit(jar, `${server.url}${path}`);
  if (response.status !== 302) return { refused: response };
  return { providerUrl: locationOf(response, server.url) };
}

/**
 * atProvider signs accountId in at the provider (or cancels) and returns the callback URL the provider
 * sends the browser to (not opened yet).
 */
export async function atProvider(
  provider: TestProvider,
  providerUrl: string,
  accountId: string,
  cancel = false,
): Promise<string> {
  const jar = new CookieJar();
  let url = providerUrl;
  for (let step = 0; step < 10; step += 1) {
    if (!url.startsWith(provider.issuer)) return url;
    const response = await visit(jar, url);
    if (response.status >= 300 && response.status < 400) {
      url = locationOf(response, url);
      continue;
    }
    const interaction = /\/interaction\/[^/?#]+$/.exec(new URL(url).pathname);
    if (response.status !== 200 || !interaction) {
      throw new Error(`provider answered ${response.status} at ${url}: ${await response.text()}`);
    }
    const page = await response.text();
    // The dev interactions ask for a login, then (when the client asks `prompt=consent`) a consent.
    const consent = /name="prompt" value="consent"/.test(page);
    const submitted = cancel
      ? await visit(jar, `${url}/abort`)
      : await visit(
          jar,
          url,
          consent ? { prompt: 'consent' } : { prompt: 'login', login: accountId, password: 'any' },
        );
    url = locationOf(submitted, url);
  }
  throw new Error('the provider never sent the browser back');
}

/** signInThrough runs a whole sign-in and returns our callback's response. */
export async function signInThrough(
  server: RunningServer,
  provider: TestProvider,
  path: string,
  accountId: string,
): Promise<Response> {
  const jar = new CookieJar();
  const started = await startSignIn(server, jar, path);
  if (!started.providerUrl) throw new Error(`login refused: ${started.refused?.status ?? 'no answer'}`);
  const callback = await atProvider(provider, started.providerUrl, accountId);
  return visit(jar, callback);
}

/** tokenOf reads `access_token` and `is_new_user` from where our callback sent the browser. */
export function tokenOf(response: Response): { target: URL; token: string; isNewUser: string } {
  const target = new URL(response.headers.get('location') ?? 'about:blank');
  return {
    target,
    token: target.searchParams.get('access_token') ?? '',
    isNewUser: target.searchParams.get('is_new_user') ?? '',
  };
}
