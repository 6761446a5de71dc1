import { Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FunctionsBusyError } from './function-errors';
import { createFunctionPool, type FunctionPool } from './function-pool';
import type { FunctionProcess } from './function-process';

function fakeProcess(): FunctionProcess & { killed: boolean } {
  let alive = true;
  const item = {
    socketPath: '/nowhere',
    agent: new Agent(),
    active: 0,
    lastUsed: Date.now(),
    exited: new Promise<string>(() => undefined),
    killed: false,
    isAlive: () => alive,
    kill: () => {
      alive = false;
      item.killed = true;
    },
    retire: () => {
      alive = false;
      item.killed = true;
    },
  };
  return item;
}

let pool: FunctionPool | null = null;
afterEach(() => pool?.close());

function poolOf(limits: { instances: number; maxProcesses: number; idleMs?: number }) {
  const started: Array<{ name: string; item: ReturnType<typeof fakeProcess> }> = [];
  pool = createFunctionPool({ idleMs: 60_000, ...limits }, async (name) => {
    const item = fakeProcess();
    started.push({ name, item });
    return item;
  });
  return { pool, started };
}

describe('createFunctionPool', () => {
  it('starts lazily, reuses an idle process, and starts another for a concurrent call up to instances', async () => {
    const { pool, started } = poolOf({ instances: 2, maxProcesses: 10 });
    const first = await pool.acquire('a');
    const second = await pool.acquire('a');
    expect(started).toHaveLength(2);
    const third = await pool.acquire('a'); // both busy, at the cap: shares the least busy
    expect(started).toHaveLength(2);
    [first, second, third].forEach((lease) => lease.release());
    await pool.acquire('a');
    expect(started).toHaveLength(2);
  });

  it('retires a process a call timed out on: no new call reaches it, and it dies when its last call ends', async () => {
    const { pool, started } = poolOf({ instances: 1, maxProcesses: 10 });
    const slow = await pool.acquire('a');
    const other = await pool.acquire('a'); // shares the one process (instances: 1)
    expect(started).toHaveLength(1);
    slow.retire();
    slow.release();
    expect(started[0]?.item.killed).toBe(false); // another caller's call is still on it
    const next = await pool.acquire('a');
    expect(started).toHaveLength(2); // a fresh process, not the retiring one
    expect(next.process).toBe(started[1]?.item);
    other.release();
    expect(started[0]?.item.killed).toBe(true);
    next.release();
    expect(started[1]?.item.killed).toBe(false);
  });

  it('stops the least recently used idle process of another function at the process cap', async () => {
    const { pool, started } = poolOf({ instances: 1, maxProcesses: 2 });
    (await pool.acquire('a')).release();
    (await pool.acquire('b')).release();
    (await pool.acquire('c')).release();
    expect(started.map((entry) => entry.name)).toEqual(['a', 'b', 'c']);
    expect(started[0]?.item.killed).toBe(true);
    expect(pool.size()).toBe(2);
  });

  it('answers busy when every process serves a call and the function has none', async () => {
    const { pool } = poolOf({ instances: 1, maxProcesses: 1 });
    await pool.acquire('a');
    await expect(pool.acquire('b')).rejects.toThrow(FunctionsBusyError);
  });

  it('replaces a dead process, and stopAll and close kill every one', async () => {
    const { pool, started } = poolOf({ instances: 1, maxProcesses: 5 });
    const lease = await pool.acquire('a');
    lease.process.kill();
    lease.release();
    await pool.acquire('a');
    expect(started).toHaveLength(2);
    pool.stopAll();
    expect(started.every((entry) => entry.item.killed)).toBe(true);
    pool.close();
    await expect(pool.acquire('a')).rejects.toThrow(FunctionsBusyError);
  });

  it('makes a burst of cold calls beyond the slots wait for a starting process instead of refusing', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let starts = 0;
    pool = createFunctionPool({ instances: 1, maxProcesses: 10, idleMs: 60_000 }, async () => {
      starts += 1;
      await gate;
      return fakeProcess();
    });
    const burst = Promise.all(Array.from({ length: 5 }, () => (pool as FunctionPool).acquire('fn')));
    release();
    const leases = await burst;
    expect(starts).toBe(1);
    expect(new Set(leases.map((lease) => lease.process)).size).toBe(1);
    expect(leases[0]?.process.active).toBe(5);
  });

  it('fails the calls waiting for a start that fails with its error', async () => {
    pool = createFunctionPool({ instances: 1, maxProcesses: 10, idleMs: 60_000 }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('compile error');
    });
    const results = await Promise.allSettled([pool.acquire('fn'), pool.acquire('fn'), pool.acquire('fn')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ message: 'compile error' });
  });
});
