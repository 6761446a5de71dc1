import { createHash } from 'node:crypto';

/**
 * DEFAULT_FRAME_ANCESTORS lets the Base44 editor (and this site itself) embed the site; FRAME_ANCESTORS
 * replaces the list.
 */
export const DEFAULT_FRAME_ANCESTORS = "'self' https://base44.com https://*.base44.com https://*.base44.app";

/** FRAME_ANCESTOR_SOURCE is one allowed source: 'self', 'none', *, or an http(s) origin (`*.` subdomains allowed). */
export const FRAME_ANCESTOR_SOURCE =
  /^(?:'self'|'none'|\*|https?:\/\/(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?)$/;

// Executable inline scripts only: data blocks (`type="application/json"`) are not run, so need no hash.
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const EXECUTABLE_TYPE = /^\s*$|^\s*(?:module|text\/javascript|application\/javascript)\s*$/i;

/** inlineScriptHashes returns the CSP source ('sha256-…') of each executable inline script in pages. */
export function inlineScriptHashes(pages: readonly (string | null)[]): string[] {
  const hashes = new Set<string>();
  for (const page of pages) {
    for (const [, attributes = '', body = ''] of page?.matchAll(INLINE_SCRIPT) ?? []) {
      if (/\bsrc\s*=/i.test(attributes)) continue;
      const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1] ?? '';
      if (!EXECUTABLE_TYPE.test(type)) continue;
      hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
    }
  }
  return [...hashes];
}

/** SitePolicyOptions are the parts of a page policy that vary. */
export interface SitePolicyOptions {
  scriptHashes: readonly string[];
  /** frameAncestors is the `frame-ancestors` source list ('none' for pages never framed). */
  frameAncestors: string;
}

/**
 * contentSecurityPolicy is the policy of the site's HTML pages: scripts from this origin or the hashed
 * inline ones; inline styles allowed (the pages inline their CSS and set style attributes); images,
 * fonts, API calls and the realtime socket from this origin only.
 */
export function contentSecurityPolicy({ scriptHashes, frameAncestors }: SitePolicyOptions): string {
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...scriptHashes].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}
