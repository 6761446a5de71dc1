import { describe, expect, it } from 'vitest';
import { compileLinearPattern } from './linear-pattern';

describe('compileLinearPattern', () => {
  it('takes ECMAScript escapes RE2 spells otherwise (\\uXXXX)', () => {
    const han = compileLinearPattern('^[\\u4e00-\\u9fa5]+$');
    expect(han.matcher('中文').find()).toBe(true);
    expect(han.matcher('abc').find()).toBe(false);
  });

  it('refuses what has no linear-time match (lookarounds, backreferences)', () => {
    expect(() => compileLinearPattern('^(?=a)a$')).toThrow();
    expect(() => compileLinearPattern('(a)\\1')).toThrow();
  });

  it('matches in linear time where a backtracking engine would not return', () => {
    const evil = compileLinearPattern('^(a+)+$');
    expect(evil.matcher(`${'a'.repeat(50_000)}!`).find()).toBe(false);
  });
});
