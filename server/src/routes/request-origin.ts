import { safeRedirectTarget } from '../lib/redirect-target';
import type { FastifyRequest } from 'fastify';
import { mailLinkOrigin, ownOrigin, type ArrivedAt } from '../lib/own-origin';

// Links and redirects never come from the Host header alone: PUBLIC_URL, or the listen address the
// request provably reached (lib/own-origin.ts).

function arrivedAt(request: FastifyRequest): ArrivedAt {
  return {
    protocol: request.protocol,
    host: request.host,
    localAddress: request.socket.localAddress,
    localPort: request.socket.localPort,
  };
}

/** linkOriginOf is the origin of links mailed on behalf of request (503 naming PUBLIC_URL when unknown). */
export function linkOriginOf(request: FastifyRequest, publicUrl: string | undefined): string {
  return mailLinkOrigin(publicUrl, arrivedAt(request));
}

/**
 * returnTargetOf is where a browser may be sent back to after sign-in or sign-out pages: fromUrl when it is
 * on this server's own origin (as proven, never from headers alone) or on one of returnOrigins, else `/`.
 */
export function returnTargetOf(
  request: FastifyRequest,
  fromUrl: string | undefined,
  publicUrl: string | undefined,
  returnOrigins: readonly string[] = [],
): string {
  const own = ownOriginOf(request, publicUrl);
  return safeRedirectTarget(fromUrl, [...(own ? [own] : []), ...returnOrigins]);
}

/** ownOriginOf is the origin a response may name in a link or redirect, or null (use a relative one). */
export function ownOriginOf(request: FastifyRequest, publicUrl: string | undefined): string | null {
  return ownOrigin(publicUrl, arrivedAt(request));
}

/**
 * strictReturnTarget is fromUrl when sign-in may send the browser back there (a same-site path, or a URL on
 * this server's proven origin or returnOrigins), else null; no fromUrl means the app's root.
 */
export function strictReturnTarget(
  request: FastifyRequest,
  fromUrl: string | undefined,
  publicUrl: string | undefined,
  returnOrigins: readonly string[] = [],
): string | null {
  if (fromUrl === undefined || fromUrl === '') return '/';
  const target = returnTargetOf(request, fromUrl, publicUrl, returnOrigins);
  return target === '/' && fromUrl !== '/' ? null : target;
}

/** isReturnOrigin says whether origin is exactly this server's proven origin or one of returnOrigins. */
export function isReturnOrigin(
  request: FastifyRequest,
  origin: string,
  publicUrl: string | undefined,
  returnOrigins: readonly string[] = [],
): boolean {
  const own = ownOriginOf(request, publicUrl);
  return origin === own || returnOrigins.includes(origin);
}
