import { describe, expect, it } from 'vitest';
import { requestIds } from './request-id';

describe('requestIds', () => {
  it('never repeats within a process or across two (a restart or another instance)', () => {
    const first = requestIds();
    const second = requestIds();
    const ids = [...Array.from({ length: 5000 }, first), ...Array.from({ length: 5000 }, second)];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 10)) expect(id).toMatch(/^[\w-]{12}-[0-9a-z]+$/);
  });
});
