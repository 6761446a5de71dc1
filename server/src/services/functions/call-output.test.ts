import { describe, expect, it } from 'vitest';
import { boundLine, CALL_OUTPUT_LIMITS, createOutputTap, createRedactor } from './call-output';

describe('createRedactor', () => {
  it('replaces every secret value by its name, and a call token, longest first', () => {
    const redact = createRedactor({ API_KEY: 'sk-live-123456', SHORT: 'abc', INNER: 'live-123' });
    expect(redact('key=sk-live-123456 and sk-live-123456')).toBe(
      'key=[redacted secret API_KEY] and [redacted secret API_KEY]',
    );
    expect(redact('abc live-123')).toBe('abc [redacted secret INNER]');
    expect(redact('Bearer tok-9999', ['tok-9999'])).toBe('Bearer [redacted token]');
  });
});

describe('boundLine', () => {
  it('finds the start of a long token at the cut, whatever its length (linear, not quadratic)', () => {
    const token = `${'a'.repeat(14_999)}b`;
    const line = `${'a'.repeat(1990)}${token}`;
    expect(boundLine(line, 2000, [token])).toBe('[redacted]…');
    const other = `q${'a'.repeat(14_999)}`;
    expect(boundLine(`${'z'.repeat(1995)}qaaaaaaa`, 2000, [other])).toBe(`${'z'.repeat(1995)}[redacted]…`);
  });

  it('cuts a long line and removes the start of a secret the cut went through', () => {
    const secret = 'S3CRET-VALUE-XYZ';
    const line = `${'a'.repeat(10)}${secret}`;
    expect(boundLine(line, 14, [secret])).toBe(`${'a'.repeat(10)}[redacted]…`);
    expect(boundLine('short', 14, [secret])).toBe('short');
  });
});

describe('createOutputTap', () => {
  it('gives lines to the running call, then for a grace period to the one that ended, else to none', async () => {
    let now = 1000;
    const tap = createOutputTap({ TOKEN: 'very-secret' }, () => now, 20);
    expect(tap.line('stdout', 'at start: very-secret')).toBe('at start: [redacted secret TOKEN]');
    const call = tap.begin(['minted-token']);
    tap.line('stdout', 'one minted-token');
    const ended = tap.end(call);
    tap.line('stderr', 'late');
    now += 50;
    tap.line('stdout', 'after grace');
    const output = await ended;
    expect(output.lines).toEqual([
      { stream: 'stdout', line: 'one [redacted token]' },
      { stream: 'stderr', line: 'late' },
    ]);
  });

  it('keeps at most the line and size limits of one call and counts the rest', async () => {
    const tap = createOutputTap({}, Date.now, 1);
    const call = tap.begin([]);
    for (let i = 0; i < CALL_OUTPUT_LIMITS.lines + 5; i += 1) tap.line('stdout', `line ${i}`);
    const output = await tap.end(call);
    expect(output.lines).toHaveLength(CALL_OUTPUT_LIMITS.lines);
    expect(output.dropped).toBe(5);
    const big = tap.begin([]);
    for (let i = 0; i < 20; i += 1) tap.line('stdout', 'x'.repeat(5000));
    const kept = await tap.end(big);
    expect(kept.chars).toBeLessThanOrEqual(CALL_OUTPUT_LIMITS.chars);
    expect(kept.lines.every((line) => line.line.length <= CALL_OUTPUT_LIMITS.lineChars + 1)).toBe(true);
    expect(kept.dropped).toBeGreaterThan(0);
  });
});
