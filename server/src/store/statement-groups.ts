import { sqlState } from '../lib/database-errors';

// Grouping for hot single-row statements. Under load, many requests ask the same statement with a different
// row (a create, a get-by-id): those that arrive while one is running wait and then run together, as one
// statement (one commit, one round trip). A lone call runs at once, so a quiet server adds no latency, and
// nobody's answer comes before its own statement has finished.

/** GroupOptions bounds a group: statements in flight at once, and items in one statement. */
export interface GroupOptions {
  maxInFlight: number;
  maxItems: number;
  /** retryAlone says whether a failed group's items are run one by one (else they all fail with it). */
  retryAlone?: (error: unknown) => boolean;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

interface Group<Item, Result> {
  inFlight: number;
  waiting: Waiting<Item, Result>[];
}

/**
 * A failure that concerns the whole database (lost connection, deadline, restart: SQLSTATE classes 08, 53,
 * 57, or no SQLSTATE at all, here or in its cause) is everyone's; another one may come from one item's
 * values.
 */
export function failsEveryone(error: unknown): boolean {
  // The store turns a data exception into an InvalidInputError whose cause holds the SQLSTATE.
  const state = sqlState(error) ?? sqlState((error as { cause?: unknown } | null)?.cause);
  return state === null || /^(08|53|57)/.test(state);
}

/**
 * groupStatements returns call(key, item) → item's result. Items of one key that wait are run together by
 * runGroup(items), which answers one result per item, in order.
 */
export function groupStatements<Item, Result>(
  runGroup: (items: Item[]) => Promise<Result[]>,
  options: GroupOptions,
) {
  const groups = new Map<string, Group<Item, Result>>();

  async function runAlone(entry: Waiting<Item, Result>) {
    try {
      const [result] = await runGroup([entry.item]);
      entry.resolve(result as Result);
    } catch (error) {
      entry.reject(error);
    }
  }

  async function run(batch: Waiting<Item, Result>[]) {
    try {
      const results = await runGroup(batch.map((entry) => entry.item));
      batch.forEach((entry, index) => entry.resolve(results[index] as Result));
    } catch (error) {
      if (batch.length === 1 || !options.retryAlone?.(error)) {
        for (const entry of batch) entry.reject(error);
      } else {
        for (const entry of batch) await runAlone(entry);
      }
    }
  }

  async function drain(key: string, group: Group<Item, Result>) {
    while (group.waiting.length > 0) await run(group.waiting.splice(0, options.maxItems));
    group.inFlight -= 1;
    if (group.inFlight === 0) groups.delete(key);
  }

  return function call(key: string, item: Item): Promise<Result> {
    let group = groups.get(key);
    if (!group) {
      group = { inFlight: 0, waiting: [] };
      groups.set(key, group);
    }
    const result = new Promise<Result>((resolve, reject) => {
      group.waiting.push({ item, resolve, reject });
    });
    if (group.inFlight < options.maxInFlight) {
      group.inFlight += 1;
      void drain(key, group);
    }
    return result;
  };
}
