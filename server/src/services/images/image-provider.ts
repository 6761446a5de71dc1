import type { ImageContentType } from '../../lib/media-file';
import { drawImage } from './builtin-artist';

/** GeneratedImage is the output of any image provider. */
export interface GeneratedImage {
  contentType: ImageContentType;
  bytes: Buffer;
}

/** ImageProvider draws an image for a prompt; its id is part of every image key it produces. */
export interface ImageProvider {
  id: string;
  generate(prompt: string): Promise<GeneratedImage>;
}

/** createBuiltinImageProvider wraps the built-in artist, which needs no network or key. */
export function createBuiltinImageProvider(): ImageProvider {
  return {
    id: 'builtin',
    generate: async (prompt) => drawImage(prompt),
  };
}
