import { describe, expect, it } from 'vitest';
import type { Caller } from './caller';
import { matchesRule } from './evaluate-rule';
import { resolveRule } from './resolve-rule';
import { RuleSchema } from './rule-schema';

const alice: Caller = {
  kind: 'user',
  user: { id: 'u1', email: 'alice@x.test', role: 'user', full_name: 'Alice', custom: { team: 'red' } },
};
const admin: Caller = {
  kind: 'user',
  user: { id: 'u9', email: 'root@x.test', role: 'admin', full_name: 'Root', custom: {} },
};
const anonymous: Caller = { kind: 'anonymous' };
const service: Caller = { kind: 'service' };

describe('resolveRule', () => {
  it.each([
    [undefined, anonymous, true],
    [true, anonymous, true],
    [null, anonymous, true],
    ['', anonymous, true],
    [{}, anonymous, true],
    [false, alice, false],
    [false, service, true],
    [{ created_by: '{{user.email}}' }, anonymous, false],
    [{ created_by: '{{user.email}}' }, service, true],
  ])('%j for %j is %j', (rule, caller, expected) => {
    expect(resolveRule(rule as never, caller)).toEqual(expected);
  });

  it('substitutes templates, also inside $in arrays, and maps data.* to record fields', () => {
    expect(
      resolveRule(
        { created_by: '{{user.email}}', 'data.team': { $in: ['{{user.data.team}}', 'all'] } },
        alice,
      ),
    ).toEqual({
      $and: [{ created_by: { $eq: 'alice@x.test' } }, { team: { $in: ['red', 'all'] } }],
    });
  });

  it('decides user_condition in code, so admins follow the rule as written', () => {
    const rule = { $or: [{ user_condition: { role: 'admin' } }, { created_by_id: '{{user.id}}' }] };
    expect(resolveRule(rule, admin)).toBe(true);
    expect(resolveRule(rule, alice)).toEqual({ created_by_id: { $eq: 'u1' } });
    expect(resolveRule({ user_condition: { role: 'admin' } }, alice)).toBe(false);
    expect(resolveRule({ user_condition: { 'data.team': { $ne: 'blue' } } }, alice)).toBe(true);
  });

  it('never turns a template the user lacks into null (which would match unowned records)', () => {
    expect(resolveRule({ created_by: '{{user.data.missing}}' }, alice)).toBe(false);
    expect(resolveRule({ $nor: [{ created_by: '{{user.data.missing}}' }] }, alice)).toBe(true);
  });

  // That the SQL evaluation agrees with this one is checked for random rules in store/rules-agree.test.ts.
  it('evaluates a resolved rule on a record in hand', () => {
    const rule = resolveRule(
      { $or: [{ created_by: '{{user.email}}' }, { 'data.tags': { $all: ['a'] } }] },
      alice,
    );
    expect(matchesRule({ created_by: 'alice@x.test' }, rule)).toBe(true);
    expect(matchesRule({ created_by: 'bob@x.test', tags: ['a', 'b'] }, rule)).toBe(true);
    expect(matchesRule({ created_by: 'bob@x.test', tags: ['b'] }, rule)).toBe(false);
  });

  // Found by rules-agree.test.ts: the JS evaluation once differed from PostgreSQL's jsonb semantics here.
  it.each([
    [{ tags: [null, 'a'] }, { tags: { $all: [null] } }, true],
    [{ tags: ['a', 'b'] }, { tags: { $all: ['b', 'a'] } }, true],
    [{ tags: [['a', 'b']] }, { tags: { $all: [['a']] } }, true],
    [{ tags: [['a']] }, { tags: { $all: ['a'] } }, false],
    [{ meta: [{ level: 1 }] }, { meta: { $eq: { level: 1 } } }, false],
    [{ meta: { a: 1, b: 2 } }, { meta: { $eq: { b: 2, a: 1 } } }, true],
    [{ tags: ['red', 'x'] }, { tags: { $eq: 'x' } }, true],
  ])('evaluates %j against %j as PostgreSQL does: %j', (record, rule, expected) => {
    expect(matchesRule(record, rule)).toBe(expected);
  });
});

describe('RuleSchema', () => {
  it.each([
    [{ created_by: '{{user.email}}' }, true],
    [{ user_condition: { role: { $in: ['admin'] } } }, true],
    [{ $or: [{ created_by: 'x' }, { 'data.owner': { $ne: null } }] }, true],
    [{ $where: 'x' }, false],
    [{ user_condition: { password: 'x' } }, false],
    [{ created_by: { $regex: '.' } }, false],
    [{ $or: [] }, false],
  ])('%j valid: %j', (rule, valid) => {
    expect(RuleSchema.safeParse(rule).success).toBe(valid);
  });
});
