import { DEFAULT_APP_ID } from './sdk-client';
import { CookieJar } from './provider-sign-in-flow';
import type { RunningServer } from './server-process';

// A user's connect as the SDK's `connectAppUser` starts it in a browser on the app's origin: the answer's
// cookie (which binds the connect to that browser) is kept in a jar the callback is then opened with.

/** UserConnect is the initiate answer and the browser's cookies after it. */
export interface UserConnect {
  status: number;
  json: Record<string, unknown>;
  redirectUrl: string;
  jar: CookieJar;
}

/** initiateUserConnect POSTs `app-user-auth/connectors/{id}/initiate` with token (and body) as a browser. */
export async function initiateUserConnect(
  server: RunningServer,
  token: string,
  connector: string,
  body?: Record<string, unknown>,
): Promise<UserConnect> {
  const url = `${server.url}/api/apps/${DEFAULT_APP_ID}/app-user-auth/connectors/${connector}/initiate`;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const jar = new CookieJar();
  jar.keep(url, response);
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, json, redirectUrl: String(json.redirect_url ?? ''), jar };
}
