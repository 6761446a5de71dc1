import { describe, expect, it } from 'vitest';
import { InvalidInputError } from './errors';
import {
  MAX_JSON_DEPTH,
  parseJsonInput,
  unsafeJsonReason,
  unsafeStringReason,
  unsafeValueReason,
} from './safe-input';

describe('unsafeJsonReason', () => {
  it.each([
    ['{"a":[1,{"b":"c"}]}'],
    ['"\\\\u0000"'],
    ['"\\ud83d\\ude00 and 😀"'],
    ['"[[[[ in a string is not nesting"'],
    [`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`],
  ])('accepts %s', (text) => {
    expect(unsafeJsonReason(text)).toBeNull();
  });

  it.each([
    [`${'['.repeat(5000)}${']'.repeat(5000)}`, 'deeper'],
    [`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`, 'deeper'],
    ['{"a":"x\\u0000"}', 'NUL'],
    ['{"a\\u0000":1}', 'NUL'],
    ['"\\ud800"', 'surrogate'],
    ['"\\uDC00x"', 'surrogate'],
    ['"\\ud800\\u0041"', 'surrogate'],
    ['"\ud800"', 'surrogate'],
  ])('refuses %s', (text, word) => {
    expect(unsafeJsonReason(text)).toContain(word);
  });
});

describe('parseJsonInput', () => {
  it('parses, and refuses with a 400 what is unsafe or malformed', () => {
    expect(parseJsonInput('{"a":1}', 'The body')).toEqual({ a: 1 });
    expect(() => parseJsonInput('[', 'The body')).toThrow(InvalidInputError);
    expect(() => parseJsonInput('"\\u0000"', 'The body')).toThrow(/The body holds a NUL/);
  });
});

describe('unsafeStringReason / unsafeValueReason', () => {
  it('finds NULs and lone surrogates in strings, keys and nested values', () => {
    expect(unsafeStringReason('plain ü 😀')).toBeNull();
    expect(unsafeStringReason('a\0b')).toContain('NUL');
    expect(unsafeStringReason('\udc00')).toContain('surrogate');
    expect(unsafeValueReason({ a: ['x', 'y\0'] })).toContain('NUL');
    expect(unsafeValueReason({ 'k\ud800': 'v' })).toContain('surrogate');
    expect(unsafeValueReason({ a: 'b', n: 1 })).toBeNull();
  });
});
