import type { Queryable } from './database';

/** StoredImage is one generated image with its bytes. */
export interface StoredImage {
  key: string;
  prompt: string;
  provider: string;
  content_type: string;
  bytes: Buffer;
}

/** createImagesStore returns the SQL for the generated_images table. */
export function createImagesStore(db: Queryable) {
  return {
    /** findType returns the content type of the image stored under key, without reading its bytes. */
    async findType(key: string): Promise<string | null> {
      const { rows } = await db.query<{ content_type: string }>(
        'SELECT content_type FROM generated_images WHERE key = $1',
        [key],
      );
      return rows[0]?.content_type ?? null;
    },
    /** findBytes returns the content type and bytes stored under key, or null. */
    async findBytes(key: string): Promise<{ contentType: string; bytes: Buffer } | null> {
      const { rows } = await db.query<{ content_type: string; bytes: Uint8Array }>(
        'SELECT content_type, bytes FROM generated_images WHERE key = $1',
        [key],
      );
      const row = rows[0];
      if (!row) return null;
      return { contentType: row.content_type, bytes: Buffer.from(row.bytes) };
    },
    /** insert stores an image; a second insert of the same key keeps the first. */
    async insert(image: StoredImage): Promise<void> {
      await db.query(
        `INSERT INTO generated_images (key, prompt, provider, content_type, bytes)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING`,
        [image.key, image.prompt, image.provider, image.content_type, image.bytes],
      );
    },
  };
}

export type ImagesStore = ReturnType<typeof createImagesStore>;
