// InvokeLLM's `file_urls`, read server-side (our stored files straight from storage, foreign ones through
// the guarded fetch): images become image parts as data URLs (a provider cannot reach this server's
// localhost URLs, and private files need no public link), documents become their extracted text.
import { InvalidInputError } from '../../lib/errors';
import { UNPACK_RATIO } from '../extraction/extraction-service';
import { documentText } from '../extraction/file-text';
import type { FileBytes, FileReader, FileReadLimits } from '../files/file-reader';
import type { ContentPart } from './llm-provider';

/** MAX_DOCUMENT_CHARS bounds the text all files of one call add to the prompt. */
export const MAX_DOCUMENT_CHARS = 200_000;

/** imageTypeOf is the image type the provider accepts for bytes (magic numbers), or null. */
export function imageTypeOf(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** FileContext is what a call's files add: image parts and a text block. */
export interface FileContext {
  images: ContentPart[];
  text: string;
}

const nameOf = (file: FileBytes) => file.filename.slice(0, 100);

/**
 * MAX_FILES_BYTES bounds the bytes all file_urls of one call may hold together: images stay in memory, as
 * base64 data URLs in the provider request, for as long as the call runs (each file alone is capped by
 * EXTRACT_MAX_MB, ten of them could otherwise hold hundreds of MB per call).
 */
export const MAX_FILES_BYTES = 20 * 1024 * 1024;

/** createLlmFiles reads a call's file_urls into what the model is sent. */
export function createLlmFiles(deps: { readFileUrl: FileReader; limits: FileReadLimits }) {
  async function partOf(
    appId: string,
    url: string,
    spend: (bytes: number) => void,
  ): Promise<{ image?: ContentPart; text?: string }> {
    const file = await deps.readFileUrl(appId, url, deps.limits);
    spend(file.bytes.length);
    const imageType = imageTypeOf(file.bytes);
    if (imageType) {
      return {
        image: {
          type: 'image_url',
          image_url: { url: `data:${imageType};base64,${file.bytes.toString('base64')}` },
        },
      };
    }
    let text: string | null;
    try {
      text = await documentText(file, {
        maxEntries: 10_000,
        maxUncompressedBytes: UNPACK_RATIO * deps.limits.maxBytes,
      });
    } catch (error) {
      if (error instanceof InvalidInputError) throw error;
      throw new InvalidInputError(
        `The file ${nameOf(file)} could not be read: ${(error as Error).message.slice(0, 200)}`,
      );
    }
    if (text === null) {
      throw new InvalidInputError(
        `The file ${nameOf(file)} (${file.contentType}) is not a type InvokeLLM reads: images (PNG, JPEG, GIF, WebP), PDF, DOCX, CSV, XLSX, JSON or text`,
      );
    }
    return { text: `File ${nameOf(file)}:\n${text}` };
  }

  return {
    /** read resolves urls of appId in order; any unreadable or unsupported file refuses the call (400). */
    async read(appId: string, urls: readonly string[]): Promise<FileContext> {
      // One file at a time, so a call never holds more than the total cap (plus one file) in memory.
      let total = 0;
      const spend = (bytes: number) => {
        total += bytes;
        if (total > MAX_FILES_BYTES) {
          throw new InvalidInputError(
            `file_urls add up to more than ${MAX_FILES_BYTES / 1024 / 1024} MB: send fewer or smaller files`,
          );
        }
      };
      const parts: Array<{ image?: ContentPart; text?: string }> = [];
      for (const url of urls) parts.push(await partOf(appId, url, spend));
      const images = parts.flatMap((part) => (part.image ? [part.image] : []));
      let text = parts.flatMap((part) => (part.text ? [part.text] : [])).join('\n\n');
      if (text.length > MAX_DOCUMENT_CHARS) {
        text = `${text.slice(0, MAX_DOCUMENT_CHARS)}\n[… the files' text is cut here: ${MAX_DOCUMENT_CHARS} characters at most]`;
      }
      return { images, text };
    },
  };
}

export type LlmFiles = ReturnType<typeof createLlmFiles>;
