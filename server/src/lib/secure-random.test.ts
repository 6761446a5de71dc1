import { describe, expect, it } from 'vitest';
import { randomId, secretMatcher } from './secure-random';

describe('randomId', () => {
  it('gives 24 hex characters, never the same twice, across many pool refills', () => {
    const ids = Array.from({ length: 20_000 }, randomId);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('secretMatcher', () => {
  it('accepts only the exact secret, whatever the candidate length', () => {
    const matches = secretMatcher('service-token-0123456789');
    expect(matches('service-token-0123456789')).toBe(true);
    expect(matches('service-token-012345678')).toBe(false);
    expect(matches('service-token-01234567890')).toBe(false);
    expect(matches('')).toBe(false);
  });
});
