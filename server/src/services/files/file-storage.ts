// One interface over where uploaded bytes live (disk, PostgreSQL, S3). Drivers only move bytes: who may
// read a file, its type and its name are the file service's, kept in the `files` table.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

/** ByteRange is an inclusive byte range, as HTTP Range gives it. */
export interface ByteRange {
  start: number;
  end: number;
}

/** FileStorage stores and streams file bytes under opaque keys it chooses. */
export interface FileStorage {
  readonly kind: 'disk' | 'postgres' | 's3';
  /** put streams body into storage under a new key; a failed or aborted body leaves nothing behind. */
  put(body: Readable): Promise<{ key: string; size: number }>;
  /** get streams the bytes of key (only range when given), or null when there is no such key. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  /** stat is the size of key's bytes, or null when there is no such key. */
  stat(key: string): Promise<{ size: number } | null>;
  /** delete removes key's bytes; deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** list yields every stored key. */
  list(): AsyncIterable<string>;
}

/** STORAGE_KEY_PATTERN is the shape of every key: 32 lowercase hex digits (128 random bits). */
export const STORAGE_KEY_PATTERN = /^[0-9a-f]{32}$/;

/** newStorageKey draws a fresh key: random, so a key neither collides nor can be guessed. */
export function newStorageKey(): string {
  return randomBytes(16).toString('hex');
}
