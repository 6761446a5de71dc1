import { describe, expect, it } from 'vitest';
import { createReadCache } from './read-cache';

const MB = 1024 * 1024;

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('createReadCache', () => {
  it('answers the same question from memory until a write to the entity', async () => {
    const cache = createReadCache({ maxBytes: MB, ttlMs: 60_000 });
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await cache.read('app', 'Todo', 'q1', load)).toEqual({ n: 1 });
    expect(await cache.read('app', 'Todo', 'q1', load)).toEqual({ n: 1 });
    expect(await cache.read('app', 'Todo', 'q2', load)).toEqual({ n: 2 });
    cache.invalidate('app', 'Note');
    expect(await cache.read('app', 'Todo', 'q1', load)).toEqual({ n: 1 });
    cache.invalidate('app', 'Todo');
    expect(await cache.read('app', 'Todo', 'q1', load)).toEqual({ n: 3 });
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 3 });
  });

  it('keeps apart the same key in other apps and entities', async () => {
    const cache = createReadCache({ maxBytes: MB, ttlMs: 60_000 });
    await cache.read('a', 'Todo', 'k', async () => 'a-todo');
    await cache.read('b', 'Todo', 'k', async () => 'b-todo');
    await cache.read('a', 'Note', 'k', async () => 'a-note');
    expect(await cache.read('a', 'Todo', 'k', async () => 'miss')).toBe('a-todo');
    expect(await cache.read('b', 'Todo', 'k', async () => 'miss')).toBe('b-todo');
    expect(await cache.read('a', 'Note', 'k', async () => 'miss')).toBe('a-note');
  });

  it('does not keep an answer loaded while a write landed', async () => {
    const cache = createReadCache({ maxBytes: MB, ttlMs: 60_000 });
    const slow = deferred<string>();
    const reading = cache.read('app', 'Todo', 'k', () => slow.promise);
    cache.invalidate('app', 'Todo'); // the write commits while the read is in flight
    slow.resolve('before the write');
    expect(await reading).toBe('before the write');
    expect(await cache.read('app', 'Todo', 'k', async () => 'after the write')).toBe('after the write');
  });

  it('counts an answer once when two concurrent misses of the same question both load it', async () => {
    const cache = createReadCache({ maxBytes: MB, ttlMs: 60_000 });
    await Promise.all([1, 2].map(() => cache.read('app', 'Todo', 'k', async () => 'x'.repeat(100))));
    const once = cache.stats().bytes;
    cache.invalidate('app', 'Todo');
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
    await cache.read('app', 'Todo', 'k', async () => 'x'.repeat(100));
    expect(cache.stats().bytes).toBe(once);
  });

  it('forgets answers after their lifetime', async () => {
    let clock = 0;
    const cache = createReadCache({ maxBytes: MB, ttlMs: 1000, now: () => clock });
    await cache.read('app', 'Todo', 'k', async () => 'old');
    clock = 999;
    expect(await cache.read('app', 'Todo', 'k', async () => 'new')).toBe('old');
    clock = 1000;
    expect(await cache.read('app', 'Todo', 'k', async () => 'new')).toBe('new');
  });

  it('stays within its memory budget, dropping the least recently used first', async () => {
    const cache = createReadCache({ maxBytes: 40_000, ttlMs: 60_000 });
    const big = (tag: string) => async () => tag + 'x'.repeat(1000);
    for (let i = 0; i < 20; i++) await cache.read('app', 'Todo', `k${i}`, big(`v${i}`));
    expect(cache.stats().bytes).toBeLessThanOrEqual(40_000);
    expect(cache.stats().entries).toBeLessThan(20);
    expect(await cache.read('app', 'Todo', 'k19', big('miss'))).toMatch(/^v19/);
    expect(await cache.read('app', 'Todo', 'k0', big('miss'))).toMatch(/^miss/);
    // One answer larger than an eighth of the budget is served but never kept.
    await cache.read('app', 'Todo', 'huge', async () => 'y'.repeat(5000));
    expect(await cache.read('app', 'Todo', 'huge', async () => 'again')).toBe('again');
  });

  it('caches nothing while invalidations from other instances may be lost, and starts afresh after', async () => {
    let inSync = true;
    const cache = createReadCache({ maxBytes: MB, ttlMs: 60_000, trusted: () => inSync });
    await cache.read('app', 'Todo', 'k', async () => 'kept');
    inSync = false;
    expect(await cache.read('app', 'Todo', 'k', async () => 'fresh 1')).toBe('fresh 1');
    expect(await cache.read('app', 'Todo', 'k', async () => 'fresh 2')).toBe('fresh 2');
    expect(cache.stats().entries).toBe(0);
    inSync = true;
    expect(await cache.read('app', 'Todo', 'k', async () => 'fresh 3')).toBe('fresh 3');
    expect(await cache.read('app', 'Todo', 'k', async () => 'miss')).toBe('fresh 3');
  });
});
