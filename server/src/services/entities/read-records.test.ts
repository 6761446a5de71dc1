import { describe, expect, it } from 'vitest';
import { jsonBytesOf } from '../../lib/json-memo';
import type { EntityRecord } from './record-presenter';
import { withinBytes } from './read-records';

const record = (id: string, text: string) => ({ id, text }) as unknown as EntityRecord;

describe('withinBytes', () => {
  it('keeps the records whose JSON fits, and remembers exactly that JSON', () => {
    const records = [record('a', 'x'.repeat(40)), record('b', 'y'.repeat(40)), record('c', 'z'.repeat(40))];
    const kept = withinBytes(records, 130);
    expect(kept.map((row) => (row as unknown as { id: string }).id)).toEqual(['a', 'b']);
    expect(jsonBytesOf(kept).toString()).toBe(JSON.stringify(kept));
    expect(jsonBytesOf(kept).length).toBeLessThanOrEqual(130);
  });

  it('answers every record when they fit, and one even when it alone is larger', () => {
    const records = [record('a', 'x')];
    expect(withinBytes(records, 1_000)).toBe(records);
    expect(withinBytes([record('big', 'x'.repeat(500))], 100)).toHaveLength(1);
  });
});
