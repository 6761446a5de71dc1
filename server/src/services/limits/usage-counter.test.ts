import { describe, expect, it } from 'vitest';
import { createUsageCounter } from './usage-counter';

describe('createUsageCounter (in process)', () => {
  it('adds what a key spends today, apart from other keys', async () => {
    const usage = createUsageCounter({ now: () => Date.UTC(2026, 0, 1, 12) });
    await usage.charge('a', 40);
    await usage.charge('a', 2.5);
    await usage.charge('b', 7);
    expect(await usage.used('a')).toBe(42.5);
    expect(await usage.used('b')).toBe(7);
    expect(await usage.used('c')).toBe(0);
  });

  it('starts again at UTC midnight and says how long until then', async () => {
    let time = Date.UTC(2026, 0, 1, 23, 59, 30);
    const usage = createUsageCounter({ now: () => time });
    await usage.charge('a', 10);
    expect(usage.secondsToReset()).toBe(30);
    time += 60_000;
    expect(await usage.used('a')).toBe(0);
  });

  it('counts per window of windowMs when given one', async () => {
    let time = 59_000;
    const usage = createUsageCounter({ windowMs: 60_000, now: () => time });
    await usage.charge('a', 5);
    expect(usage.secondsToReset()).toBe(1);
    time = 60_000;
    expect(await usage.used('a')).toBe(0);
  });

  it('keeps at most maxKeys counters', async () => {
    const usage = createUsageCounter({ maxKeys: 2, now: () => 0 });
    await usage.charge('a', 1);
    await usage.charge('b', 1);
    await usage.charge('c', 1);
    expect(await usage.used('a')).toBe(0);
    expect(await usage.used('c')).toBe(1);
  });

  it('gives back negative amounts, never below zero, ignores ones that are not numbers, and answers the total', async () => {
    const usage = createUsageCounter();
    expect(await usage.charge('a', 10)).toBe(10);
    expect(await usage.charge('a', -4)).toBe(6);
    expect(await usage.charge('a', -50)).toBe(0);
    expect(await usage.charge('a', Number.NaN)).toBe(0);
  });
});
