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

  /** page is HTML-like text of about 60 KB, which quality 11 compresses clearly smaller than quality 5. */
  const page = (label: string) =>
    Array.from(
      { length: 600 },
      (_, i) =>
        `<li class="row-${i % 7} ${label}">Entry ${i * 37} of the ${label} court, sealed ${i % 13}</li>`,
    ).join('');
  const settled = async (read: () => Buffer, first: Buffer) => {
    for (let i = 0; i < 200 && read() === first; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return read();
  };

  it('recompresses a page served again at brotli best, in the background, once', async () => {
    const compress = createCompressionMemo(4);
    const content = page('home');
    const first = compress(content, 'br');
    expect(compress(content, 'br')).toBe(first);
    const best = await settled(() => compress(content, 'br'), first);
    expect(best.length).toBeLessThan(first.length);
    expect(brotliDecompressSync(best).toString()).toBe(content);
    expect(compress(content, 'br')).toBe(best);
    // gzip answers are never recompressed.
    const gzip = compress(content, 'gzip');
    compress(content, 'gzip');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(compress(content, 'gzip')).toBe(gzip);
  });

  it('recompresses at most upgradesPerMinute pages a minute, whatever asks', async () => {
    let clock = 0;
    const compress = createCompressionMemo(4, { upgradesPerMinute: 1, now: () => clock });
    const [one, two] = [page('one'), page('two')];
    const firstOne = compress(one, 'br');
    compress(one, 'br');
    expect((await settled(() => compress(one, 'br'), firstOne)).length).toBeLessThan(firstOne.length);
    const firstTwo = compress(two, 'br');
    compress(two, 'br');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(compress(two, 'br')).toBe(firstTwo);
    clock += 60_000;
    expect((await settled(() => compress(two, 'br'), firstTwo)).length).toBeLessThan(firstTwo.length);
  });
});
