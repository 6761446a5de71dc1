import { describe, expect, it } from 'vitest';
import { ANSWER_LIMITS, answerShapeProblem } from './answer-bounds';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const array = (items: number) => JSON.stringify(Array.from({ length: items }, (_, i) => ({ i })));

describe('answerShapeProblem', () => {
  it('passes answers within the limits, at the limits', () => {
    expect(answerShapeProblem('{"mood": "calm", "tags": ["a", "b"], "n": [[1, 2], []]}')).toBeNull();
    expect(answerShapeProblem(nested(ANSWER_LIMITS.maxDepth))).toBeNull();
    expect(answerShapeProblem(array(ANSWER_LIMITS.maxArrayItems))).toBeNull();
    expect(answerShapeProblem('not json at all')).toBeNull();
  });

  it('refuses an answer nested 10,000 deep, without parsing it', () => {
    expect(answerShapeProblem(nested(ANSWER_LIMITS.maxDepth + 1))).toMatch(/deeper than 64 levels/);
    expect(answerShapeProblem(`{"a":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_001)}`)).toMatch(/deeper/);
  });

  it('refuses an array of more items than the limit, at any depth', () => {
    expect(answerShapeProblem(array(ANSWER_LIMITS.maxArrayItems + 1))).toMatch(/more than 10000 items/);
    expect(answerShapeProblem(`{"rows": {"x": ${array(20_000)}}}`)).toMatch(/more than 10000 items/);
    // Commas between an object's members are no items.
    const wide = `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(answerShapeProblem(wide)).toBeNull();
  });

  it('reads brackets, commas and escaped quotes inside strings as text', () => {
    const text = JSON.stringify({ s: `${'[,'.repeat(20_000)}\\"[` });
    expect(answerShapeProblem(text)).toBeNull();
    expect(answerShapeProblem(JSON.stringify([`\\`, '"[[[']))).toBeNull();
  });

  it('refuses an answer longer than the limit', () => {
    expect(answerShapeProblem(`"${'x'.repeat(ANSWER_LIMITS.maxChars)}"`)).toMatch(
      /longer than 1000000 characters/,
    );
  });
});
