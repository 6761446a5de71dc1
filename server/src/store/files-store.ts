import type { Queryable } from './database';

/** FileRow is one uploaded file's facts; its bytes live in the FILE_STORAGE driver under key. */
export interface FileRow {
  key: string;
  app_id: string;
  private: boolean;
  filename: string;
  content_type: string;
  /** inline says the type is safe to show in the browser; otherwise it is served as a download. */
  inline: boolean;
  size: number;
  sha256: string;
  created_by_id: string | null;
  /** anonymous marks an upload nobody signed in made (pruned once unreferenced: FILE_ANONYMOUS_RETENTION_HOURS). */
  anonymous?: boolean;
}

/** FileSummary is what pruning needs of a file. */
export type FileSummary = Pick<FileRow, 'key' | 'app_id' | 'size' | 'filename'>;

/** createFilesStore returns the SQL for the files table. */
export function createFilesStore(db: Queryable) {
  return {
    /** insert records an uploaded file. */
    async insert(file: FileRow): Promise<void> {
      await db.query(
        `INSERT INTO files
           (key, app_id, private, filename, content_type, inline, size, sha256, created_by_id, anonymous)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          file.key,
          file.app_id,
          file.private,
          file.filename,
          file.content_type,
          file.inline,
          file.size,
          file.sha256,
          file.created_by_id,
          file.anonymous ?? false,
        ],
      );
    },
    /** find returns appId's file under key, or null. */
    async find(appId: string, key: string): Promise<FileRow | null> {
      const { rows } = await db.query<FileRow>('SELECT * FROM files WHERE app_id = $1 AND key = $2', [
        appId,
        key,
      ]);
      const row = rows[0];
      return row ? { ...row, size: Number(row.size) } : null;
    },
    /** totalBytes is the size of every file appId keeps. */
    async totalBytes(appId: string): Promise<number> {
      const { rows } = await db.query<{ total: string | number }>(
        'SELECT coalesce(sum(size), 0) AS total FROM files WHERE app_id = $1',
        [appId],
      );
      return Number(rows[0]?.total ?? 0);
    },
    /** anonymousOlderThan lists at most limit anonymous uploads made more than seconds ago, oldest first. */
    async anonymousOlderThan(seconds: number, limit: number): Promise<FileSummary[]> {
      const { rows } = await db.query<FileSummary>(
        `SELECT key, app_id, size, filename FROM files
         WHERE anonymous AND created_at <= now() - make_interval(secs => $1) ORDER BY created_at LIMIT $2`,
        [seconds, limit],
      );
      return rows.map((row) => ({ ...row, size: Number(row.size) }));
    },
    /** olderThan lists files uploaded more than seconds ago (key, app, size, name), oldest first. */
    async olderThan(seconds: number): Promise<FileSummary[]> {
      const { rows } = await db.query<FileSummary>(
        `SELECT key, app_id, size, filename FROM files
         WHERE created_at <= now() - make_interval(secs => $1) ORDER BY created_at, key`,
        [seconds],
      );
      return rows.map((row) => ({ ...row, size: Number(row.size) }));
    },
    /** olderThanIn lists at most limit of appId's files uploaded more than seconds ago, oldest first. */
    async olderThanIn(appId: string, seconds: number, limit: number): Promise<FileSummary[]> {
      const { rows } = await db.query<FileSummary>(
        `SELECT key, app_id, size, filename FROM files
         WHERE app_id = $1 AND created_at <= now() - make_interval(secs => $2) ORDER BY created_at, key LIMIT $3`,
        [appId, seconds, limit],
      );
      return rows.map((row) => ({ ...row, size: Number(row.size) }));
    },
    /**
     * isReferenced says whether any entity record or user profile of appId mentions key (a file's URL or
     * URI holds its key, which is 32 random hex digits, so a text search cannot match by accident).
     */
    async isReferenced(appId: string, key: string): Promise<boolean> {
      const pattern = `%${key}%`;
      const { rows } = await db.query<{ found: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM entity_records WHERE app_id = $1 AND data::text LIKE $2)
             OR EXISTS (SELECT 1 FROM users WHERE app_id = $1 AND custom::text LIKE $2) AS found`,
        [appId, pattern],
      );
      return rows[0]?.found === true;
    },
    /** knows says whether a file row exists for key, in any app. */
    async knows(key: string): Promise<boolean> {
      const { rows } = await db.query<{ key: string }>('SELECT key FROM files WHERE key = $1', [key]);
      return rows.length > 0;
    },
    /** delete forgets the file under key. */
    async delete(key: string): Promise<void> {
      await db.query('DELETE FROM files WHERE key = $1', [key]);
    },
  };
}

export type FilesStore = ReturnType<typeof createFilesStore>;

/** createFileChunksStore returns the SQL for file_chunks, the postgres driver's bytes. */
export function createFileChunksStore(db: Queryable) {
  return {
    async insert(key: string, seq: number, data: Buffer): Promise<void> {
      await db.query('INSERT INTO file_chunks (key, seq, data) VALUES ($1, $2, $3)', [key, seq, data]);
    },
    /** read returns chunk seq of key, or null. */
    async read(key: string, seq: number): Promise<Buffer | null> {
      const { rows } = await db.query<{ data: Uint8Array }>(
        'SELECT data FROM file_chunks WHERE key = $1 AND seq = $2',
        [key, seq],
      );
      const row = rows[0];
      return row ? Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength) : null;
    },
    /** stat is key's total size, or null when it has no chunk. */
    async stat(key: string): Promise<{ size: number } | null> {
      const { rows } = await db.query<{ chunks: string; size: string | null }>(
        'SELECT count(*) AS chunks, sum(octet_length(data)) AS size FROM file_chunks WHERE key = $1',
        [key],
      );
      const row = rows[0];
      if (!row || Number(row.chunks) === 0) return null;
      return { size: Number(row.size ?? 0) };
    },
    async deleteKey(key: string): Promise<void> {
      await db.query('DELETE FROM file_chunks WHERE key = $1', [key]);
    },
    async *keys(): AsyncGenerator<string> {
      const { rows } = await db.query<{ key: string }>('SELECT DISTINCT key FROM file_chunks ORDER BY key');
      for (const row of rows) yield row.key;
    },
  };
}

export type FileChunksStore = ReturnType<typeof createFileChunksStore>;
