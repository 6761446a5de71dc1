import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

/**
 * createCompressionMemo returns a compressor that remembers its last few results by content, so pages
 * that render identically on every request are compressed once.
 */
export function createCompressionMemo(maxEntries = 32) {
  const memo = new Map<string, Buffer>();
  return function compressMemo(content: string, encoding: Exclude<ContentEncoding, 'identity'>): Buffer {
    const memoKey = `${encoding}\n${content}`;
    const hit = memo.get(memoKey);
    if (hit) return hit;
    const compressed = compressBody(Buffer.from(content), encoding);
    if (memo.size >= maxEntries) {
      const oldest = memo.keys().next().value;
      if (oldest !== undefined) memo.delete(oldest);
    }
    memo.set(memoKey, compressed);
    return compressed;
  };
}
