import { Readable } from 'node:stream';
import type { FileChunksStore } from '../../store/files-store';
import { newStorageKey, type ByteRange, type FileStorage } from './file-storage';

/** FILE_CHUNK_BYTES is the size of every stored chunk but a file's last (1 MiB: one row, one round trip). */
export const FILE_CHUNK_BYTES = 1024 * 1024;

/**
 * chunksOf cuts a byte stream into FILE_CHUNK_BYTES pieces as it arrives, so at most one chunk is held in
 * memory; every piece but the last is exactly FILE_CHUNK_BYTES (a range read finds its chunk by division).
 */
async function* chunksOf(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of body) {
    let rest = piece;
    while (pendingBytes + rest.length >= FILE_CHUNK_BYTES) {
      const take = FILE_CHUNK_BYTES - pendingBytes;
      yield Buffer.concat([...pending, rest.subarray(0, take)]);
      rest = rest.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

/**
 * createPostgresFileStorage keeps files as 1 MiB `bytea` chunks in PostgreSQL (`file_chunks`), so every
 * instance on the same DATABASE_URL serves every file. Reads fetch one chunk at a time as the client
 * drains them. Never used on PGlite (see config/files-env.ts).
 */
export function createPostgresFileStorage(chunks: FileChunksStore): FileStorage {
  return {
    kind: 'postgres',
    async put(body: Readable) {
      const key = newStorageKey();
      let seq = 0;
      let size = 0;
      // One insert in flight while the next chunk arrives: at most two chunks are held.
      let writing: Promise<void> = Promise.resolve();
      try {
        for await (const chunk of chunksOf(body)) {
          await writing;
          writing = chunks.insert(key, seq, chunk);
          writing.catch(() => undefined); // awaited on the next turn or below; never unhandled meanwhile
          seq += 1;
          size += chunk.length;
        }
        await writing;
      } catch (error) {
        await writing.catch(() => undefined);
        await chunks.deleteKey(key).catch(() => undefined);
        throw error;
      }
      // An empty file still gets a row, so it exists.
      if (seq === 0) await chunks.insert(key, 0, Buffer.alloc(0));
      return { key, size };
    },
    async get(key: string, range?: ByteRange) {
      const info = await chunks.stat(key);
      if (!info) return null;
      const start = range?.start ?? 0;
      const end = range?.end ?? info.size - 1;
      const first = Math.floor(start / FILE_CHUNK_BYTES);
      const last = Math.floor(end / FILE_CHUNK_BYTES);
      // The next chunk is fetched while this one is sent, so the client never waits a whole round trip.
      const fetchChunk = (seq: number) => {
        const pending = chunks.read(key, seq);
        pending.catch(() => undefined); // a client gone mid-file leaves a prefetch nobody awaits
        return pending;
      };
      async function* read(): AsyncGenerator<Buffer> {
        let next = fetchChunk(first);
        for (let seq = first; seq <= last; seq += 1) {
          const data = await next;
          if (!data) return;
          if (seq < last) next = fetchChunk(seq + 1);
          const offset = seq * FILE_CHUNK_BYTES;
          yield data.subarray(Math.max(0, start - offset), Math.min(data.length, end - offset + 1));
        }
      }
      return Readable.from(read(), { objectMode: false });
    },
    stat: (key) => chunks.stat(key),
    delete: (key) => chunks.deleteKey(key),
    list: () => chunks.keys(),
  };
}
