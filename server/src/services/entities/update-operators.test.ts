import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lib/errors';
import {
  applyUpdate,
  MAX_ARRAY_WORK,
  MAX_OPERAND_ITEMS,
  newArrayWork,
  parseUpdate,
} from './update-operators';

const numbers = (n: number, prefix = '') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const now = new Date();

describe('parseUpdate bounds the operands of array operators', () => {
  it(`refuses $each and $in lists longer than ${MAX_OPERAND_ITEMS} items (400 naming the limit)`, () => {
    const tooMany = numbers(MAX_OPERAND_ITEMS + 1);
    for (const update of [
      { $addToSet: { tags: { $each: tooMany } } },
      { $push: { tags: { $each: tooMany } } },
      { $pull: { tags: { $in: tooMany } } },
    ]) {
      expect(() => parseUpdate(update)).toThrow(InvalidInputError);
      expect(() => parseUpdate(update)).toThrow(`at most ${MAX_OPERAND_ITEMS} items`);
    }
    expect(() => parseUpdate({ $addToSet: { tags: { $each: numbers(MAX_OPERAND_ITEMS) } } })).not.toThrow();
  });
});

describe('array operators', () => {
  it('$addToSet adds each value once, comparing values whatever their key order', () => {
    const after = applyUpdate(
      { tags: ['a', { x: 1, y: 2 }] },
      parseUpdate({ $addToSet: { tags: { $each: ['a', 'b', 'b', { y: 2, x: 1 }, { x: 1 }] } } }),
      now,
    );
    expect(after.tags).toEqual(['a', { x: 1, y: 2 }, 'b', { x: 1 }]);
  });

  it('$pull drops every matching element, a value or any of $in', () => {
    const data = { tags: ['a', 'b', 'a', { k: [1, { m: 2, n: 3 }] }, 1] };
    expect(applyUpdate(data, parseUpdate({ $pull: { tags: 'a' } }), now).tags).toEqual([
      'b',
      data.tags[3],
      1,
    ]);
    const pulled = applyUpdate(
      data,
      parseUpdate({ $pull: { tags: { $in: [{ k: [1, { n: 3, m: 2 }] }, 1] } } }),
      now,
    );
    expect(pulled.tags).toEqual(['a', 'b', 'a']);
  });

  it('handles the largest operand against a large array in linear time', () => {
    const data = { tags: numbers(20_000) };
    const added = applyUpdate(data, parseUpdate({ $addToSet: { tags: { $each: numbers(1000, 'n') } } }), now);
    expect(added.tags).toHaveLength(21_000);
    const pulled = applyUpdate(data, parseUpdate({ $pull: { tags: { $in: numbers(1000) } } }), now);
    expect(pulled.tags).toHaveLength(19_000);
  });

  it(`refuses (400) once one update's array operators visit more than ${MAX_ARRAY_WORK} elements over its records`, () => {
    const update = parseUpdate({ $addToSet: { tags: { $each: numbers(1000, 'n') } } });
    const record = { tags: numbers(1000) };
    const work = newArrayWork();
    const rounds = Math.floor(MAX_ARRAY_WORK / 2000);
    for (let i = 0; i < rounds; i += 1) applyUpdate(record, update, now, undefined, work);
    expect(() => applyUpdate(record, update, now, undefined, work)).toThrow(InvalidInputError);
    expect(() => applyUpdate(record, update, now, undefined, work)).toThrow(`more than ${MAX_ARRAY_WORK}`);
  });
});
