import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter';
import { createRegexBudget, holdsRegex } from './regex-budget';

describe('regex query budget', () => {
  it('finds $regex in a query text or anywhere in a body', () => {
    expect(holdsRegex('{"title":{"$regex":"a"}}')).toBe(true);
    expect(holdsRegex('{"title":"a"}')).toBe(false);
    expect(holdsRegex({ query: { $or: [{ a: 1 }, { b: { $regex: 'x' } }] } })).toBe(true);
    expect(holdsRegex({ query: { a: { $in: ['$regex'] } } })).toBe(false);
    expect(holdsRegex(undefined)).toBe(false);
  });

  it('gives each anonymous IP and each user a budget a minute; the service role has none', async () => {
    const budget = createRegexBudget(createRateLimiter(), 2);
    const anonymous = { kind: 'anonymous' } as const;
    await budget.spend('app', anonymous, '192.0.2.1');
    await budget.spend('app', anonymous, '192.0.2.1');
    await expect(budget.spend('app', anonymous, '192.0.2.1')).rejects.toThrow(
      'ENTITY_REGEX_QUERIES_PER_MINUTE',
    );
    await budget.spend('app', anonymous, '192.0.2.2');
    for (let i = 0; i < 5; i++) await budget.spend('app', { kind: 'service' }, '192.0.2.1');
  });
});
