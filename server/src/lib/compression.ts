import { brotliCompress, brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/**
 * negotiateEncoding picks brotli when the client accepts it, else gzip, else no compression.
 * Entries with `q=0` are refused; other weights are not ranked because both codecs serve text well.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding {
  if (!acceptEncoding) return 'identity';
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}

/** compressBody compresses bytes with the chosen encoding; brotli at quality 5 trades little size for speed. */
export function compressBody(bytes: Buffer, encoding: Exclude<ContentEncoding, 'identity'>): Buffer {
  if (encoding === 'br') {
    return brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
  }
  return gzipSync(bytes, { level: 6 });
}

/** MemoEntry is one remembered page: its compressed bytes, and whether they are at brotli's best. */
interface MemoEntry {
  body: Buffer;
  best: boolean;
}

/** CompressionMemoOptions bound the background recompression of pages served again. */
export interface CompressionMemoOptions {
  /** upgradesPerMinute is how many pages per minute are recompressed at brotli's best (default 6). */
  upgradesPerMinute?: number;
  /** maxUpgradeBytes is the largest page recompressed (default 512 KB). */
  maxUpgradeBytes?: number;
  now?: () => number;
}

/**
 * createCompressionMemo returns a compressor that remembers its last few results by content, so pages
 * that render identically on every request are compressed once. The first answer is quick brotli
 * (quality 5, ~3 ms for Home); a page asked for again is recompressed at quality 11 in the background
 * (zlib's thread pool: ~100 ms there, never on the event loop), one at a time and a few per minute, so
 * every later visitor gets ~10 % fewer bytes (Home's HTML then fits the first round trip) and no request
 * shape can make the server spend more than that budget on it.
 */
export function createCompressionMemo(maxEntries = 32, options: CompressionMemoOptions = {}) {
  const memo = new Map<string, MemoEntry>();
  const upgradesPerMinute = options.upgradesPerMinute ?? 6;
  const maxUpgradeBytes = options.maxUpgradeBytes ?? 512 * 1024;
  const now = options.now ?? Date.now;
  let upgrading = false;
  let window = { start: 0, used: 0 };

  function upgrade(entry: MemoEntry, content: string): void {
    if (upgrading || content.length > maxUpgradeBytes) return;
    const at = now();
    if (at - window.start >= 60_000) window = { start: at, used: 0 };
    if (window.used >= upgradesPerMinute) return;
    window.used += 1;
    upgrading = true;
    const bytes = Buffer.from(content);
    const params = {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    };
    brotliCompress(bytes, { params }, (error, best) => {
      upgrading = false;
      entry.best = true;
      if (!error) entry.body = best;
    });
  }

  return function compressMemo(content: string, encoding: Exclude<ContentEncoding, 'identity'>): Buffer {
    const memoKey = `${encoding}\n${content}`;
    const hit = memo.get(memoKey);
    if (hit) {
      if (encoding === 'br' && !hit.best) upgrade(hit, content);
      return hit.body;
    }
    const entry: MemoEntry = { body: compressBody(Buffer.from(content), encoding), best: false };
    if (memo.size >= maxEntries) {
      const oldest = memo.keys().next().value;
      if (oldest !== undefined) memo.delete(oldest);
    }
    memo.set(memoKey, entry);
    return entry.body;
  };
}
