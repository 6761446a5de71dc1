import { describe, expect, it } from 'vitest';
import { randomId } from './secure-random';

describe('randomId', () => {
  it('gives 24 hex characters, never the same twice, across many pool refills', () => {
    const ids = Array.from({ length: 20_000 }, randomId);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
