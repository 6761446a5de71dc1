// How an upload is served: the type comes from its content, and only types a browser cannot run script in
// are shown inline; anything else (HTML, SVG, XML, JS, unknown) is a download under a sandboxing CSP.

/** INLINE_SNIFFED are types shown inline when the content's magic bytes prove them. */
const INLINE_SNIFFED = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/heic',
  'image/x-icon',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'video/ogg',
  'audio/mpeg',
  'audio/mp4',
  'audio/ogg',
  'audio/wav',
  'audio/x-wav',
  'audio/webm',
  'audio/flac',
  'application/pdf',
]);

/** INLINE_DECLARED are text types no sniffer recognises that browsers never execute (with nosniff). */
const INLINE_DECLARED = new Set(['text/plain', 'text/csv', 'application/json']);

const MIME_TOKEN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

/** ServedType is a stored file's Content-Type and whether it may be shown inline. */
export interface ServedType {
  contentType: string;
  inline: boolean;
}

/**
 * servedType decides from the sniffed type (trusted) and the uploader's declared type (trusted only for a
 * few inert text types; otherwise kept as the label of a download).
 */
export function servedType(sniffed: string | null, declared: string | undefined): ServedType {
  if (sniffed) return { contentType: sniffed, inline: INLINE_SNIFFED.has(sniffed) };
  const label = (declared ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!MIME_TOKEN.test(label)) return { contentType: 'application/octet-stream', inline: false };
  return { contentType: label, inline: INLINE_DECLARED.has(label) };
}

/** SANDBOX_CSP stops a served file from running script or loading anything, even if opened as a page. */
export const SANDBOX_CSP =
  "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

/** rfc5987 encodes a file name for `filename*=UTF-8''…` (encodeURIComponent leaves ' ( ) * as they are). */
const rfc5987 = (name: string) =>
  encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * fileHeaders are the safety headers of a served file: never sniffed by the browser, sandboxed (a PDF
 * proven by its magic bytes is left to the browser's viewer, which a sandbox would block), and a download
 * unless inline.
 */
export function fileHeaders(file: { contentType: string; inline: boolean; filename: string }) {
  const disposition = file.inline ? 'inline' : 'attachment';
  const headers: Record<string, string> = {
    'content-type': file.contentType.startsWith('text/')
      ? `${file.contentType}; charset=utf-8`
      : file.contentType,
    'x-content-type-options': 'nosniff',
    'content-disposition': `${disposition}; filename*=UTF-8''${rfc5987(file.filename)}`,
  };
  if (!(file.inline && file.contentType === 'application/pdf'))
    headers['content-security-policy'] = SANDBOX_CSP;
  return headers;
}
