import { describe, expect, it } from 'vitest';
import { createRegexBudget, holdsRegex } from './regex-budget';
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
      if (scan) await budget.charge(scan);
    }
    await expect(budget.admit('app', anonymous, '192.0.2.1')).rejects.toThrow(
      'ENTITY_REGEX_SCAN_MS_PER_MINUTE',
    );
    expect(await budget.admit('app', anonymous, '192.0.2.2')).not.toBeNull();
    expect(await budget.admit('app', { kind: 'service' }, '192.0.2.1')).toBeNull();
  });
});
