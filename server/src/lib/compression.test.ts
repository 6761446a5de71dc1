import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createCompressionMemo, negotiateEncoding } from './compression';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'gzip'],
    ['deflate', 'identity'],
  ])('%s → %s', (header, expected) => expect(negotiateEncoding(header)).toBe(expected));
});

describe('createCompressionMemo', () => {
  it('compresses once per content and encoding', () => {
    const compress = createCompressionMemo(2);
    const first = compress('<p>hello</p>', 'br');
    expect(compress('<p>hello</p>', 'br')).toBe(first);
    expect(brotliDecompressSync(first).toString()).toBe('<p>hello</p>');
    expect(gunzipSync(compress('<p>hello</p>', 'gzip')).toString()).toBe('<p>hello</p>');
  });
});
