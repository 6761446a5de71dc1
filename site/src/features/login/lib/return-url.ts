// Where the page sends the browser after signing in. Only this origin, and the ones the server's operator
// lists (CORS_ORIGINS, handed over in the boot data), are allowed: the access token rides along in the URL,
// so a crafted `from_url` must never carry it to another site.

/** LOGIN_PATH is this page's own path; returning to it would only show the form again. */
export const LOGIN_PATH = '/login';

/**
 * safeReturnTarget resolves `from_url` against the page origin and keeps it only when it stays on that
 * origin (an absolute URL here, or a relative path) or goes to one of otherOrigins; anything else, and the
 * login page itself, becomes `/`.
 */
export function safeReturnTarget(
  fromUrl: string | null,
  origin: string,
  otherOrigins: readonly string[] = [],
): URL {
  const home = new URL('/', origin);
  if (!fromUrl) return home;
  // The URL is parsed as the browser will (tabs dropped, `\` read as `/`), and the browser is sent to the
  // parsed, checked URL, never to the raw string.
  let target: URL;
  try {
    target = new URL(fromUrl, origin);
  } catch {
    return home;
  }
  if (target.origin === home.origin) return target.pathname === LOGIN_PATH ? home : target;
  const listed =
    (target.protocol === 'http:' || target.protocol === 'https:') && otherOrigins.includes(target.origin);
  return listed ? target : home;
}

/** returnUrlWithToken is the same-origin return target with `access_token` set, for the SDK to pick up. */
export function returnUrlWithToken(
  fromUrl: string | null,
  origin: string,
  token: string,
  otherOrigins: readonly string[] = [],
): string {
  const target = safeReturnTarget(fromUrl, origin, otherOrigins);
  target.searchParams.set('access_token', token);
  return target.href;
}
