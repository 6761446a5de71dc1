import { describe, expect, it } from 'vitest';
import { groupInserts } from './insert-groups';

interface Row {
  id: string;
}

/** A scripted insert: each call waits until released, and records which ids it was given. */
function scriptedInsert(fail?: (ids: string[]) => unknown) {
  const calls: string[][] = [];
  const releases: (() => void)[] = [];
  const insert = async (_appId: string, _entity: string, records: Row[]) => {
    const ids = records.map((record) => record.id);
    calls.push(ids);
    await new Promise<void>((resolve) => releases.push(resolve));
    const error = fail?.(ids);
    if (error) throw error;
    return ids.filter((id) => id !== 'taken').map((id) => ({ id }));
  };
  const releaseAll = async () => {
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { insert, calls, releaseAll };
}

const sqlError = (code: string) => Object.assign(new Error(`sql ${code}`), { code });

describe('groupInserts', () => {
  it('writes a lone create at once, and creates that arrive meanwhile together in one statement', async () => {
    const { insert, calls, releaseAll } = scriptedInsert();
    const insertOne = groupInserts(insert, { maxInFlight: 1, maxRecords: 100 });
    const first = insertOne('app', 'Todo', { id: 'a' });
    expect(calls).toEqual([['a']]);
    const rest = ['b', 'c', 'd'].map((id) => insertOne('app', 'Todo', { id }));
    const other = insertOne('app', 'Note', { id: 'n' });
    expect(calls).toEqual([['a'], ['n']]);
    await releaseAll();
    expect(await first).toEqual([{ id: 'a' }]);
    expect(await Promise.all(rest)).toEqual([[{ id: 'b' }], [{ id: 'c' }], [{ id: 'd' }]]);
    expect(await other).toEqual([{ id: 'n' }]);
    expect(calls).toEqual([['a'], ['n'], ['b', 'c', 'd']]);
  });

  it('answers no create before its statement has finished', async () => {
    const { insert, releaseAll } = scriptedInsert();
    const insertOne = groupInserts(insert, { maxInFlight: 1, maxRecords: 100 });
    let answered = false;
    const pending = insertOne('app', 'Todo', { id: 'a' }).then(() => (answered = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    await releaseAll();
    await pending;
    expect(answered).toBe(true);
  });

  it('bounds the records of one statement', async () => {
    const { insert, calls, releaseAll } = scriptedInsert();
    const insertOne = groupInserts(insert, { maxInFlight: 1, maxRecords: 2 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((id) => insertOne('app', 'Todo', { id }));
    await releaseAll();
    await Promise.all(all);
    expect(calls).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });

  it('answers no row for a record whose id was already stored', async () => {
    const { insert, releaseAll } = scriptedInsert();
    const insertOne = groupInserts(insert, { maxInFlight: 1, maxRecords: 100 });
    const all = ['a', 'taken', 'b'].map((id) => insertOne('app', 'Todo', { id }));
    await releaseAll();
    expect(await Promise.all(all)).toEqual([[{ id: 'a' }], [], [{ id: 'b' }]]);
  });

  it('writes each record alone after a value error, so only the bad record fails', async () => {
    const { insert, calls, releaseAll } = scriptedInsert((ids) =>
      ids.includes('bad') ? sqlError('22P05') : null,
    );
    const insertOne = groupInserts(insert, { maxInFlight: 1, maxRecords: 100 });
    const first = insertOne('app', 'Todo', { id: 'a' });
    const grouped = ['b', 'bad', 'c'].map((id) => insertOne('app', 'Todo', { id }).catch((e: Error) => e));
    await releaseAll();
    await first;
    const answers = await Promise.all(grouped);
    expect(answers[0]).toEqual([{ id: 'b' }]);
    expect((answers[1] as { code?: string }).code).toBe('22P05');
    expect(answers[2]).toEqual([{ id: 'c' }]);
    expect(calls).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('writes each record alone after a value error the store has turned into an input error', async () => {
    const inputError = () => Object.assign(new Error('Invalid input'), { cause: sqlError('22021') });
    const { insert, calls, releaseAll } = scriptedInsert((ids) =>
      ids.includes('bad') ? inputError() : null,
    );
    const insertOne = groupInserts(insert, { maxInFlight: 1, maxRecords: 100 });
    const first = insertOne('app', 'Todo', { id: 'a' });
    const grouped = ['b', 'bad'].map((id) => insertOne('app', 'Todo', { id }).catch((e: Error) => e));
    await releaseAll();
    await first;
    const answers = await Promise.all(grouped);
    expect(answers[0]).toEqual([{ id: 'b' }]);
    expect(answers[1]).toBeInstanceOf(Error);
    expect(calls).toEqual([['a'], ['b', 'bad'], ['b'], ['bad']]);
  });

  it('fails the whole group at once when the database itself fails', async () => {
    const { insert, calls, releaseAll } = scriptedInsert((ids) =>
      ids.length > 1 ? sqlError('08006') : null,
    );
    const insertOne = groupInserts(insert, { maxInFlight: 1, maxRecords: 100 });
    const first = insertOne('app', 'Todo', { id: 'a' });
    const grouped = ['b', 'c'].map((id) => insertOne('app', 'Todo', { id }).catch((e: Error) => e));
    await releaseAll();
    await first;
    const answers = await Promise.all(grouped);
    expect(answers.map((answer) => (answer as { code?: string }).code)).toEqual(['08006', '08006']);
    expect(calls).toEqual([['a'], ['b', 'c']]);
  });
});
