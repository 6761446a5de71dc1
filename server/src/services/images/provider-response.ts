import { z } from 'zod';
import { UpstreamError } from '../../lib/errors';
import { sniffImageType } from '../../lib/media-file';
import type { GeneratedImage } from './image-provider';

const ProviderResponseSchema = z.object({
  data: z
    .array(
      z.object({
        b64_json: z.string().min(1).nullish(),
        url: z.url({ protocol: /^https?$/ }).nullish(),
      }),
    )
    .min(1),
});

/** ProviderImage is either decoded image bytes or a URL the bytes must be fetched from. */
export type ProviderImage = { kind: 'bytes'; image: GeneratedImage } | { kind: 'url'; url: string };

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** decodeProviderBytes checks that bytes are a PNG, JPEG or WebP image and labels them. */
export function decodeProviderBytes(bytes: Buffer): GeneratedImage {
  const contentType = sniffImageType(bytes);
  if (!contentType) throw new UpstreamError('the image is not PNG, JPEG or WebP');
  return { contentType, bytes };
}

/**
 * parseProviderResponse reads an OpenAI-style images response: `data[0].b64_json` (decoded and sniffed)
 * or `data[0].url`. It throws UpstreamError with the reason when the body has neither.
 */
export function parseProviderResponse(body: unknown): ProviderImage {
  const parsed = ProviderResponseSchema.safeParse(body);
  if (!parsed.success) throw new UpstreamError('the response has no data[0] image');
  const first = parsed.data.data[0];
  if (first?.b64_json) {
    if (!BASE64.test(first.b64_json)) throw new UpstreamError('data[0].b64_json is not base64');
    return { kind: 'bytes', image: decodeProviderBytes(Buffer.from(first.b64_json, 'base64')) };
  }
  if (first?.url) return { kind: 'url', url: first.url };
  throw new UpstreamError('data[0] has neither b64_json nor url');
}
