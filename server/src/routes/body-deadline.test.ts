import { describe, expect, it } from 'vitest';
import { allowedMs } from './body-deadline';

describe('allowedMs', () => {
  const deadline = { graceMs: 30_000, minBytesPerSecond: 32 * 1024 };

  it('gives every body the grace, and each byte received the time it takes at the minimum rate', () => {
    expect(allowedMs(deadline, 0)).toBe(30_000);
    expect(allowedMs(deadline, 32 * 1024 * 10)).toBe(40_000);
  });

  it('lets a 50 MB upload at the minimum rate finish', () => {
    const size = 50 * 1024 * 1024;
    expect(allowedMs(deadline, size)).toBeGreaterThanOrEqual((size / deadline.minBytesPerSecond) * 1000);
  });
});
