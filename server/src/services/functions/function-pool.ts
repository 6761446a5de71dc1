// The running processes of every function: started lazily on a call, up to `instances` per function for
// concurrent calls, at most `maxProcesses` in all (an idle process of another function is stopped to make
// room), and stopped by the reaper after `idleMs` unused. A dead process (crash, heap limit, kill) is
// dropped, so the next call starts a fresh one.
import { FunctionsBusyError } from './function-errors';
import type { FunctionProcess } from './function-process';

/** PoolLimits are the pool's bounds. */
export interface PoolLimits {
  instances: number;
  maxProcesses: number;
  idleMs: number;
}

/** Lease is one process serving one call; release it when the call ends. */
export interface Lease {
  process: FunctionProcess;
  release(): void;
  /**
   * retire takes the process out of service after this call (it timed out there): no new call is given
   * to it, and it is killed once the calls already on it end, so one caller's timeout never cuts off others.
   */
  retire(): void;
}

/** createFunctionPool keeps processes by function name; start makes a new process of a function. */
export function createFunctionPool(limits: PoolLimits, start: (name: string) => Promise<FunctionProcess>) {
  const running = new Map<string, FunctionProcess[]>();
  const starting = new Map<string, number>();
  const retiring = new WeakSet<FunctionProcess>();
  /** pending are the starts in flight per function: calls beyond the slots wait for one. */
  const pending = new Map<string, Set<Promise<FunctionProcess>>>();
  let closed = false;

  const total = () =>
    [...running.values()].reduce((sum, list) => sum + list.length, 0) +
    [...starting.values()].reduce((sum, count) => sum + count, 0);

  const alive = (name: string) => {
    const list = (running.get(name) ?? []).filter((item) => item.isAlive());
    running.set(name, list);
    return list;
  };

  /** makeRoom stops the least recently used idle process of any function; false when none is idle. */
  function makeRoom(): boolean {
    let oldest: { name: string; item: FunctionProcess } | null = null;
    for (const [name, list] of running) {
      for (const item of list) {
        if (item.active === 0 && (!oldest || item.lastUsed < oldest.item.lastUsed)) oldest = { name, item };
      }
    }
    if (!oldest) return false;
    stop(oldest.name, oldest.item);
    return true;
  }

  function stop(name: string, item: FunctionProcess): void {
    item.kill();
    running.set(
      name,
      (running.get(name) ?? []).filter((other) => other !== item),
    );
  }

  function lease(name: string, item: FunctionProcess): Lease {
    item.active += 1;
    let released = false;
    return {
      process: item,
      release() {
        if (released) return;
        released = true;
        item.active -= 1;
        item.lastUsed = Date.now();
        if (retiring.has(item) && item.active === 0) stop(name, item);
      },
      retire() {
        retiring.add(item);
      },
    };
  }

  /** serving are the live processes of name that take new calls. */
  const serving = (name: string) => alive(name).filter((item) => !retiring.has(item));

  async function acquire(name: string): Promise<Lease> {
    if (closed) throw new FunctionsBusyError('The server is stopping');
    const list = serving(name);
    const idle = list.find((item) => item.active === 0);
    if (idle) return lease(name, idle);
    const own = list.length + (starting.get(name) ?? 0);
    if (own < limits.instances && (total() < limits.maxProcesses || makeRoom())) {
      starting.set(name, (starting.get(name) ?? 0) + 1);
      const started = start(name);
      const inFlight = pending.get(name) ?? new Set<Promise<FunctionProcess>>();
      pending.set(name, inFlight.add(started));
      try {
        const item = await started;
        if (closed) {
          item.kill();
          throw new FunctionsBusyError('The server is stopping');
        }
        running.set(name, [...alive(name), item]);
        return lease(name, item);
      } finally {
        starting.set(name, (starting.get(name) ?? 1) - 1);
        inFlight.delete(started);
      }
    }
    // Every slot is taken: share the least busy process of this function (Deno serves calls concurrently).
    const least = serving(name).sort((a, b) => a.active - b.active)[0];
    if (least) return lease(name, least);
    // None is ready yet but some are starting (a burst of cold calls): wait for the first, then share it;
    // a start that fails fails the calls waiting for it the same way (a compile error, once per start).
    const starts = pending.get(name);
    if (starts && starts.size > 0) {
      const failure = await Promise.race(starts).then(
        () => null,
        (error: unknown) => error,
      );
      if (failure) throw failure;
      return acquire(name);
    }
    throw new FunctionsBusyError('Every function process is busy: try again in a moment');
  }

  const reaper = setInterval(
    () => {
      const now = Date.now();
      for (const [name, list] of running) {
        for (const item of list) {
          if (!item.isAlive() || (item.active === 0 && now - item.lastUsed > limits.idleMs)) stop(name, item);
        }
      }
    },
    Math.min(30_000, Math.max(1000, limits.idleMs / 4)),
  );
  reaper.unref();

  return {
    acquire,
    /** stopFunction kills every process of name (its code or secrets changed); calls start fresh. */
    stopFunction(name: string): void {
      for (const item of running.get(name) ?? []) stop(name, item);
    },
    /** stopAll kills every process (a secret changed: each function's environment holds all of them). */
    stopAll(): void {
      for (const [name, list] of running) for (const item of list) stop(name, item);
    },
    /** size is how many processes run now (the start-up report, tests). */
    size: () => [...running.values()].reduce((sum, list) => sum + list.filter((i) => i.isAlive()).length, 0),
    close(): void {
      closed = true;
      clearInterval(reaper);
      for (const [name, list] of running) for (const item of list) stop(name, item);
    },
  };
}

export type FunctionPool = ReturnType<typeof createFunctionPool>;
