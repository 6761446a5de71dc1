import { describe, expect, it } from 'vitest';
import { createRegexBudget, holdsRegex, MAX_WAITING, type RegexScan } from './regex-budget';
import { createUsageCounter } from './usage-counter';

describe('regex scan budget', () => {
  it('finds $regex anywhere in a parsed query or body, and assumes one past what it searches', () => {
    expect(holdsRegex(JSON.parse('{"title":{"\\u0024regex":"a"}}'))).toBe(true);
    expect(holdsRegex({ title: 'a' })).toBe(false);
    expect(holdsRegex({ query: {}, pad: Array.from({ length: 10_001 }, () => ({})) })).toBe(true);
    expect(holdsRegex({ query: { $or: [{ a: 1 }, { b: { $regex: 'x' } }] } })).toBe(true);
    expect(holdsRegex({ query: { a: { $in: ['$regex'] } } })).toBe(false);
    expect(holdsRegex(undefined)).toBe(false);
  });

  it("charges each request's duration to its IP (anonymous) or user, and refuses once a minute's time is spent", async () => {
    let clock = 0;
    const budget = createRegexBudget(createUsageCounter({ windowMs: 60_000 }), 1000, () => clock);
    const anonymous = { kind: 'anonymous' } as const;
    for (const took of [400, 700]) {
      const scan = await budget.admit('app', anonymous, '192.0.2.1');
      clock += took;
      if (scan) await budget.finish(scan);
    }
    await expect(budget.admit('app', anonymous, '192.0.2.1')).rejects.toThrow(
      'ENTITY_REGEX_SCAN_MS_PER_MINUTE',
    );
    expect(await budget.admit('app', anonymous, '192.0.2.2')).not.toBeNull();
    expect(await budget.admit('app', { kind: 'service' }, '192.0.2.1')).toBeNull();
  });

  it("runs a caller's regex requests one at a time, a few more waiting, and others' beside them", async () => {
    const budget = createRegexBudget(createUsageCounter({ windowMs: 60_000 }), 60_000, undefined, 2);
    const finish = (scan: RegexScan | null) =>
      scan ? budget.finish(scan) : Promise.reject(new Error('no scan'));
    const anonymous = { kind: 'anonymous' } as const;
    const first = await budget.admit('app', anonymous, '192.0.2.1');
    const order: number[] = [];
    const waiting = Array.from({ length: MAX_WAITING }, (_, i) =>
      budget.admit('app', anonymous, '192.0.2.1').then((scan) => (order.push(i), scan)),
    );
    await expect(budget.admit('app', anonymous, '192.0.2.1')).rejects.toThrow('one at a time');
    const other = await budget.admit('app', anonymous, '192.0.2.2'); // another caller is not held
    expect(other).not.toBeNull();
    await finish(other);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual([]);
    await finish(first);
    for (const next of waiting) await finish(await next);
    expect(order).toEqual(waiting.map((_, i) => i));
    const again = await budget.admit('app', anonymous, '192.0.2.1'); // the turn is free once all finished
    expect(again).not.toBeNull();
  });

  it('refuses a waiting request whose turn comes after the budget was spent', async () => {
    let clock = 0;
    const counter = createUsageCounter({ windowMs: 60_000, now: () => clock });
    const budget = createRegexBudget(counter, 1000, () => clock);
    const finish = (scan: RegexScan | null) =>
      scan ? budget.finish(scan) : Promise.reject(new Error('no scan'));
    const anonymous = { kind: 'anonymous' } as const;
    const first = await budget.admit('app', anonymous, '192.0.2.1');
    const waiting = budget.admit('app', anonymous, '192.0.2.1');
    clock += 1500;
    await finish(first);
    await expect(waiting).rejects.toThrow('ENTITY_REGEX_SCAN_MS_PER_MINUTE');
    clock += 60_000; // a new window: the turn was handed back when the waiting request was refused
    expect(await budget.admit('app', anonymous, '192.0.2.1')).not.toBeNull();
  });

  it('runs at most atOnce regex requests across callers; the next starts when one finishes', async () => {
    const budget = createRegexBudget(createUsageCounter({ windowMs: 60_000 }), 60_000, undefined, 2);
    const finish = (scan: RegexScan | null) =>
      scan ? budget.finish(scan) : Promise.reject(new Error('no scan'));
    const from = (ip: string) => budget.admit('app', { kind: 'anonymous' }, ip);
    const [a, b] = await Promise.all([from('192.0.2.1'), from('192.0.2.2')]);
    let started = false;
    const c = from('192.0.2.3').then((scan) => ((started = true), scan));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toBe(false);
    await finish(a);
    await finish(await c);
    expect(started).toBe(true);
    await finish(b);
  });
});
