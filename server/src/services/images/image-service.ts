import { UpstreamError } from '../../lib/errors';
import { imageKey, isImageContentType, mediaFileName, parseMediaFileName } from '../../lib/media-file';
import type { ImagesStore } from '../../store/images-store';
import type { ImageProvider } from './image-provider';

/** MediaFile is a stored image as served under `/media/<file>`. */
export interface MediaFile {
  contentType: string;
  bytes: Buffer;
}

/** ImageService is the rules for generated images: look up first, generate once, store. */
export interface ImageService {
  /** providerId names the active provider (part of every key). */
  providerId: string;
  /** findStored returns the media file name of the stored image for prompt, or null without generating. */
  findStored(prompt: string): Promise<string | null>;
  /** generate returns the media file name for prompt, drawing and storing the image if not stored yet. */
  generate(prompt: string): Promise<string>;
  /** read returns a stored image by its media file name, or null for an unknown or malformed name. */
  read(file: string): Promise<MediaFile | null>;
}

/** createImageService returns the rules for generated images: look up first, generate once, store. */
export function createImageService(store: ImagesStore, provider: ImageProvider): ImageService {
  const inFlight = new Map<string, Promise<string>>();
  // Stored images never change, so a found file name can be remembered for good.
  const known = new Map<string, string>();

  async function findStoredByKey(key: string): Promise<string | null> {
    const cached = known.get(key);
    if (cached) return cached;
    const contentType = await store.findType(key);
    if (!contentType || !isImageContentType(contentType)) return null;
    const file = mediaFileName(key, contentType);
    known.set(key, file);
    return file;
  }

  async function generateAndStore(key: string, prompt: string): Promise<string> {
    const image = await provider.generate(prompt).catch((error: unknown) => {
      throw error instanceof UpstreamError
        ? new UpstreamError(`Image provider failed: ${error.message}`)
        : error;
    });
    await store.insert({
      key,
      prompt,
      provider: provider.id,
      content_type: image.contentType,
      bytes: image.bytes,
    });
    const file = mediaFileName(key, image.contentType);
    known.set(key, file);
    return file;
  }

  return {
    /** providerId names the active provider (part of every key). */
    providerId: provider.id,

    /** findStored returns the media file name of the stored image for prompt, or null without generating. */
    findStored: (prompt: string) => findStoredByKey(imageKey(provider.id, prompt)),

    /**
     * generate returns the media file name for prompt, drawing and storing the image only if it is not
     * stored yet. Concurrent calls for one prompt share a single generation. Provider failures reject
     * with UpstreamError and store nothing.
     */
    async generate(prompt: string): Promise<string> {
      const key = imageKey(provider.id, prompt);
      const early = inFlight.get(key);
      if (early) return early;
      const stored = await findStoredByKey(key);
      if (stored) return stored;
      // Checked again: another call may have started generating while the lookup awaited.
      const pending = inFlight.get(key);
      if (pending) return pending;
      const promise = generateAndStore(key, prompt).finally(() => inFlight.delete(key));
      inFlight.set(key, promise);
      return promise;
    },

    /** read returns a stored image by its media file name, or null for an unknown or malformed name. */
    async read(file: string): Promise<MediaFile | null> {
      const parsed = parseMediaFileName(file);
      if (!parsed) return null;
      const found = await store.findBytes(parsed.key);
      if (!found || found.contentType !== parsed.contentType) return null;
      return found;
    },
  };
}
