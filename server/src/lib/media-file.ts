import { createHash } from 'node:crypto';

/** MEDIA_FILE_PATTERN matches a stored media file name: a sha256 hex key and a known image extension. */
export const MEDIA_FILE_PATTERN = /^([0-9a-f]{64})\.(svg|png|jpg|webp)$/;

const EXTENSION_BY_TYPE = {
  'image/svg+xml': 'svg',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
} as const;

export type ImageContentType = keyof typeof EXTENSION_BY_TYPE;

/** imageKey derives the storage key of an image from the provider that drew it and the prompt. */
export function imageKey(providerId: string, prompt: string): string {
  return createHash('sha256').update(`${providerId}\n${prompt}`).digest('hex');
}

/** isImageContentType reports whether value is one of the image types the server stores. */
export function isImageContentType(value: string): value is ImageContentType {
  return Object.hasOwn(EXTENSION_BY_TYPE, value);
}

/** mediaFileName names the media file for a key and content type, e.g. `<key>.png`. */
export function mediaFileName(key: string, contentType: ImageContentType): string {
  return `${key}.${EXTENSION_BY_TYPE[contentType]}`;
}

/** parseMediaFileName splits a media file name into key and content type, or returns null if it is not one. */
export function parseMediaFileName(file: string): { key: string; contentType: ImageContentType } | null {
  const match = MEDIA_FILE_PATTERN.exec(file);
  if (!match?.[1] || !match[2]) return null;
  const extension = match[2];
  const entry = Object.entries(EXTENSION_BY_TYPE).find(([, ext]) => ext === extension);
  return entry ? { key: match[1], contentType: entry[0] as ImageContentType } : null;
}

/** sniffImageType recognises PNG, JPEG and WebP by their magic bytes, or returns null. */
export function sniffImageType(bytes: Uint8Array): Exclude<ImageContentType, 'image/svg+xml'> | null {
  const startsWith = (offset: number, signature: number[]): boolean =>
    signature.every((byte, index) => bytes[offset + index] === byte);
  if (startsWith(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  // RIFF....WEBP
  if (startsWith(0, [0x52, 0x49, 0x46, 0x46]) && startsWith(8, [0x57, 0x45, 0x42, 0x50])) return 'image/webp';
  return null;
}
