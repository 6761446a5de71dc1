import { describe, expect, it } from 'vitest';
import { createSseReader } from './sse-lines';

/** readAll feeds pieces one by one and collects every event's data, the end's included. */
function readAll(pieces: (string | Uint8Array)[], max?: number): string[] {
  const reader = createSseReader(max);
  return [...pieces.flatMap((piece) => reader.push(piece)), ...reader.end()];
}

describe('createSseReader', () => {
  it('reads data events and [DONE], whatever the chunk boundaries', () => {
    const stream = 'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n';
    const expected = ['{"a":1}', '{"b":2}', '[DONE]'];
    expect(readAll([stream])).toEqual(expected);
    // Every split point, one byte at a time included.
    expect(readAll([...stream])).toEqual(expected);
    for (let at = 1; at < stream.length; at += 1) {
      expect(readAll([stream.slice(0, at), stream.slice(at)])).toEqual(expected);
    }
  });

  it('takes \\r\\n and \\r line ends, a \\r\\n split across chunks included', () => {
    expect(readAll(['data: x\r\n\r\ndata: y\r\r'])).toEqual(['x', 'y']);
    expect(readAll(['data: x\r', '\n\r', '\ndata: y\r\n\r\n'])).toEqual(['x', 'y']);
  });

  it('keeps a UTF-8 character split across chunks whole', () => {
    const bytes = Buffer.from('data: {"t":"é👑"}\n\n');
    const events = readAll([bytes.subarray(0, 14), bytes.subarray(14, 17), bytes.subarray(17)]);
    expect(events).toEqual(['{"t":"é👑"}']);
  });

  it('skips comments and other fields, joins multi-line data, strips one leading space only', () => {
    const stream = ': keep-alive\n\nevent: x\nid: 3\ndata:a\ndata:  b\n\ndata\n\n';
    expect(readAll([stream])).toEqual(['a\n b', '']);
  });

  it('passes on a last event the stream ended without its blank line', () => {
    expect(readAll(['data: [DONE]'])).toEqual(['[DONE]']);
  });

  it('refuses an event over the bound, ended or not', () => {
    expect(() => readAll([`data: ${'x'.repeat(200)}\n\n`], 100)).toThrow(/larger than 100 characters/);
    expect(() => readAll(['data: ', 'x'.repeat(200)], 100)).toThrow(/larger than 100 characters/);
    expect(() => readAll(['data: 1\n'.repeat(60)], 100)).toThrow(/larger than 100 characters/);
  });
});
