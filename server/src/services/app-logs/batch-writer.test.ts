import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBatchWriter, type BatchWriterOptions } from './batch-writer';

afterEach(() => {
  vi.useRealTimers();
});

function writerWith(overrides: Partial<BatchWriterOptions<number>> = {}) {
  const batches: number[][] = [];
  const drops: number[] = [];
  const errors: number[] = [];
  const writer = createBatchWriter<number>({
    write: async (rows) => {
      batches.push(rows);
    },
    flushMs: 1000,
    maxBatch: 3,
    maxBuffered: 5,
    onDropped: (count) => drops.push(count),
    onWriteError: (_error, lost) => errors.push(lost),
    ...overrides,
  });
  return { writer, batches, drops, errors };
}

describe('createBatchWriter', () => {
  it('adds without writing, then writes one batch after flushMs', async () => {
    vi.useFakeTimers();
    const { writer, batches } = writerWith();
    expect(writer.add(1)).toBe(true);
    expect(writer.add(2)).toBe(true);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(999);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([[1, 2]]);
    expect(writer.counts()).toEqual({ buffered: 0, written: 2, dropped: 0, failed: 0 });
  });

  it('writes at once when a batch is full, in batches of maxBatch', async () => {
    vi.useFakeTimers();
    const { writer, batches } = writerWith({ maxBuffered: 100 });
    for (let row = 1; row <= 7; row += 1) writer.add(row);
    // No timer needed: the full batch starts a write, which drains what arrived meanwhile.
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('drops rows beyond maxBuffered, counts them and reports them once', async () => {
    vi.useFakeTimers();
    let release: () => void = () => undefined;
    const { writer, drops } = writerWith({
      maxBatch: 100,
      write: () => new Promise<void>((resolve) => (release = resolve)),
    });
    for (let row = 1; row <= 8; row += 1) writer.add(row);
    expect(writer.counts()).toMatchObject({ buffered: 5, dropped: 3 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(drops).toEqual([3]);
    // While a batch is being written its rows still count against the bound.
    expect(writer.add(9)).toBe(false);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(writer.add(10)).toBe(true);
  });

  it('reports a failed batch as lost and keeps going', async () => {
    const { writer, errors } = writerWith({ write: () => Promise.reject(new Error('db down')) });
    writer.add(1);
    writer.add(2);
    await writer.flush();
    expect(errors).toEqual([2]);
    expect(writer.counts()).toMatchObject({ buffered: 0, written: 0, failed: 2 });
  });

  it('writes everything on close, and drops rows added afterwards', async () => {
    const { writer, batches, drops } = writerWith({ maxBuffered: 100 });
    for (let row = 1; row <= 4; row += 1) writer.add(row);
    await writer.close();
    expect(batches.flat()).toEqual([1, 2, 3, 4]);
    expect(writer.add(5)).toBe(false);
    expect(drops).toEqual([1]);
  });
});
