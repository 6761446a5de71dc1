import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { splitLines } from './line-splitter';

/** collect feeds chunks through splitLines and returns what the sink saw, in order. */
async function collect(chunks: Array<string | Buffer>, maxLineBytes: number): Promise<string[]> {
  const seen: string[] = [];
  const input = new PassThrough();
  splitLines(input, maxLineBytes, {
    line: (text) => seen.push(`line ${text}`),
    overflow: () => seen.push('overflow'),
    dropped: (bytes) => seen.push(`dropped ${bytes}`),
  });
  const ended = new Promise((resolve) => input.once('end', resolve));
  for (const chunk of chunks) input.write(chunk);
  input.end();
  input.resume();
  await ended;
  return seen;
}

describe('splitLines', () => {
  it('splits on newlines across chunks, drops a \\r before one, and ends the last line with the stream', async () => {
    expect(await collect(['ab', 'c\r\nd\n\nef'], 100)).toEqual(['line abc', 'line d', 'line ', 'line ef']);
  });

  it('hands a long line over at the cap, then drops and counts the rest until its newline', async () => {
    expect(await collect(['12345', '6789', '0\nnext\n'], 4)).toEqual([
      'line 1234',
      'overflow',
      'dropped 6',
      'line next',
    ]);
  });

  it('counts what a line that never ends dropped, at the end of the stream', async () => {
    expect(await collect(['x'.repeat(10)], 3)).toEqual(['line xxx', 'overflow', 'dropped 7']);
  });

  it('holds no more than the cap of a line far longer than a string may be', async () => {
    // 600 MB without a newline threw `Invalid string length` in readline; here 64 MiB in 1 MiB chunks.
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const seen = await collect([...Array.from({ length: 64 }, () => chunk), '\nafter\n'], 64 * 1024);
    expect(seen.slice(1)).toEqual(['overflow', `dropped ${64 * 1024 * 1024 - 64 * 1024}`, 'line after']);
    expect(seen[0]).toHaveLength(64 * 1024 + 'line '.length);
  });
});
