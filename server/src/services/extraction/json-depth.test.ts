import { describe, expect, it } from 'vitest';
import { jsonDepthProblem } from './json-depth';

describe('jsonDepthProblem', () => {
  it('passes documents within the depth, whatever their strings hold', () => {
    expect(jsonDepthProblem('[{"a": [1, {"b": "[[[[{{{{"}]}]', 4)).toBeNull();
    expect(jsonDepthProblem('["\\"[[[[", "\\\\", []]', 2)).toBeNull();
  });

  it('refuses a document one level too deep, before parsing it', () => {
    expect(jsonDepthProblem('[[[1]]]', 2)).toMatch(/more than 2 levels deep/);
    expect(jsonDepthProblem('{"a":{"b":{}}}', 2)).toMatch(/more than 2 levels deep/);
  });

  it('measures 2 M levels in one pass', () => {
    expect(jsonDepthProblem('['.repeat(2_000_000) + ']'.repeat(2_000_000), 64)).toMatch(/64 levels/);
  });
});
