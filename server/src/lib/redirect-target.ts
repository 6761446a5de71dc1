/**
 * safeRedirectTarget returns fromUrl when it is a same-site relative path (one leading `/`, no `//` or
 * `/\`) or an absolute URL on one of allowedOrigins; anything else becomes `/`.
 */
export function safeRedirectTarget(fromUrl: string | undefined, allowedOrigins: readonly string[]): string {
  if (!fromUrl) return '/';
  // Browsers treat `\` like `/` and drop tabs and newlines, so `/\evil.com` or `/\t/evil.com` would leave.
  if ([...fromUrl].some((char) => char === '\\' || char.charCodeAt(0) < 0x20)) return '/';
  if (fromUrl.startsWith('/')) return fromUrl.startsWith('//') ? '/' : headerSafe(fromUrl);
  let url: URL;
  try {
    url = new URL(fromUrl);
  } catch {
    return '/';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return '/';
  return allowedOrigins.includes(url.origin) ? headerSafe(url.href) : '/';
}

/**
 * headerSafe percent-encodes what a `Location` header cannot carry (non-ASCII, spaces); a lone surrogate
 * cannot be encoded, so the target falls back to `/`.
 */
function headerSafe(target: string): string {
  try {
    return target.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
  } catch {
    return '/';
  }
}
