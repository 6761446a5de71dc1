import { describe, expect, it } from 'vitest';
import type { PropertySchema } from '../schemas/entity-project';
import fc from 'fast-check';
import {
  isEmail,
  MAX_EMAIL_LENGTH,
  MAX_PATTERN_INPUT,
  inferredRecordProblem,
  MAX_INFERRED_RECORD_BYTES,
  MAX_UNDECLARED_FIELDS,
  onUndeclaredField,
  prepareRecord,
  type RecordShape,
} from './record-validator';

const shape = {
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 5 },
    note: { type: ['string', 'null'] },
    n: { type: 'integer', minimum: 0, maximum: 10 },
    x: { type: 'number' },
    done: { type: 'boolean', default: false },
    status: { type: 'string', enum: ['a', 'b'] },
    email: { type: 'string', format: 'email' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    url: { type: 'string', format: 'uri' },
    code: { type: 'string', pattern: '^[A-Z]+$' },
    tags: { type: 'array', items: { type: 'string' } },
    meta: { type: 'object', properties: { score: { type: 'number' } }, required: ['score'] },
    anything: {},
  } satisfies Record<string, PropertySchema>,
  required: ['title'],
};

describe('prepareRecord', () => {
  it('drops unknown keys and stamps, and applies defaults on create', () => {
    const result = prepareRecord(shape, { title: 'a', id: 'x', created_by: 'evil', extra: 1 }, 'create');
    expect(result).toEqual({ ok: true, data: { title: 'a', done: false } });
  });

  it('accepts "" in optional fields of every format and enum, stored as sent (as the hosted platform does)', () => {
    const blank = { status: '', email: '', day: '', at: '', url: '' };
    expect(prepareRecord(shape, { title: 'a', ...blank }, 'create')).toEqual({
      ok: true,
      data: { title: 'a', done: false, ...blank },
    });
    expect(prepareRecord(shape, blank, 'update')).toEqual({ ok: true, data: blank });
    const required = {
      properties: { day: { type: 'string', format: 'date' } } satisfies Record<string, PropertySchema>,
      required: ['day'],
    };
    expect(prepareRecord(required, { day: '' }, 'create')).toEqual({
      ok: false,
      message: 'Error in field day: Input should be a valid date (YYYY-MM-DD)',
    });
  });

  it('checks only sent fields on update', () => {
    expect(prepareRecord(shape, { n: 3 }, 'update')).toEqual({ ok: true, data: { n: 3 } });
  });

  it.each([
    [{}, 'title: Field required'],
    [{ title: null }, 'title: Field required'],
    [{ title: '' }, 'title: String should have at least 1'],
    [{ title: 'toolong' }, 'title: String should have at most 5'],
    [{ title: 'a', n: 1.5 }, 'n: Input should be a valid integer'],
    [{ title: 'a', n: 11 }, 'n: Input should be ≤ 10'],
    [{ title: 'a', n: -1 }, 'n: Input should be ≥ 0'],
    [{ title: 'a', x: 'one' }, 'x: Input should be a valid number'],
    [{ title: 'a', status: 'c' }, 'status: Input should be one of "a", "b"'],
    [{ title: 'a', email: 'nope' }, 'email: Input should be a valid email'],
    [{ title: 'a', day: '2024-02-30' }, 'day: Input should be a valid date'],
    [{ title: 'a', day: '2024-13-45' }, 'day: Input should be a valid date'],
    [{ title: 'a', email: 'not-an-email' }, 'email: Input should be a valid email'],
    [{ title: 'a', email: ' ' }, 'email: Input should be a valid email'],
    [{ title: 'a', at: 'yesterday' }, 'at: Input should be a valid date-time'],
    [{ title: 'a', url: 'not a url' }, 'url: Input should be a valid URI'],
    [{ title: 'a', code: 'abc' }, 'code: String should match pattern'],
    [{ title: 'a', tags: ['a', 2] }, 'tags.1: Input should be a valid string'],
    [{ title: 'a', meta: {} }, 'meta.score: Field required'],
    [{ title: 'a', meta: { score: 'x' } }, 'meta.score: Input should be a valid number'],
    [{ title: 'a', note: 5 }, 'note: Input should be a valid string'],
  ])('%j → %s', (body, message) => {
    const result = prepareRecord(shape, body, 'create');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(`Error in field ${message}`);
  });

  it('accepts every valid form', () => {
    const body = {
      title: 'ok',
      note: null,
      n: 0,
      x: 1.5,
      status: 'b',
      email: 'a@b.co',
      day: '2024-02-29',
      at: '2024-02-29T10:00:00.000Z',
      url: 'https://example.com/x',
      code: 'AB',
      tags: ['x'],
      meta: { score: 1, extra: true },
      anything: { free: [1, 2] },
    };
    const result = prepareRecord(shape, body, 'create');
    expect(result.ok && result.data.meta).toEqual({ score: 1 });
    expect(result.ok && result.data.anything).toEqual({ free: [1, 2] });
  });

  it('keeps __proto__ and constructor keys inert', () => {
    const body = JSON.parse('{"title":"a","__proto__":{"polluted":1},"anything":{"__proto__":{"x":1}}}');
    const result = prepareRecord(shape, body, 'create');
    expect(result.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(result.ok && Object.getPrototypeOf(result.data)).toBe(Object.prototype);
  });

  it('refuses a body that is not an object', () => {
    expect(prepareRecord(shape, [1], 'create')).toEqual({
      ok: false,
      message: 'The record must be a JSON object',
    });
  });
});

describe('validators never backtrack', () => {
  const OLD_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

  it('isEmail agrees with the former email regex on values up to the length cap', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '@', '.', ' ', '\t', 'é'), maxLength: 30 });
    fc.assert(fc.property(text, (value) => isEmail(value) === OLD_EMAIL.test(value)));
  });

  it(`refuses emails over ${MAX_EMAIL_LENGTH} characters, and a 40k-character attack value at once`, () => {
    const attack = `a@${'a.'.repeat(20_000)}!`;
    const result = prepareRecord(shape, { title: 'a', email: attack }, 'create');
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.message).toContain(`at most ${MAX_EMAIL_LENGTH} characters`);
    expect(isEmail(`${'a'.repeat(240)}@example.com`)).toBe(true);
    expect(isEmail(`${'a'.repeat(250)}@example.com`)).toBe(false);
  });

  it('applies a schema pattern with a linear engine, and only to strings up to the cap', () => {
    const evil = { properties: { s: { type: 'string' as const, pattern: '^(a+)+$' } }, required: [] };
    const result = prepareRecord(evil, { s: `${'a'.repeat(5000)}!` }, 'create');
    expect(result).toMatchObject({ ok: false });
    expect(prepareRecord(evil, { s: 'aaaa' }, 'create')).toMatchObject({ ok: true });
    const long = prepareRecord(shape, { title: 'a', code: 'A'.repeat(MAX_PATTERN_INPUT + 1) }, 'create');
    expect(long).toMatchObject({ ok: false });
    if (!long.ok) expect(long.message).toContain(`at most ${MAX_PATTERN_INPUT} characters`);
  });
});

describe('an inferred schema (guessed from the app code at start)', () => {
  const guessed = {
    name: 'Trip',
    inferred: true,
    properties: {
      title: { type: 'string' },
      gear_items: { type: 'string' },
      done: { type: 'boolean', default: false },
    },
    required: [],
  } satisfies RecordShape;

  it('keeps fields it lacks and values of another type than guessed, as sent, and reports each once', () => {
    const seen: string[] = [];
    onUndeclaredField((entity, field) => seen.push(`${entity}.${field}`));
    const body = JSON.parse(
      '{"title":"Bled","gear_items":["tent"],"nights":3,"id":"x","__proto__":{"polluted":1}}',
    );
    expect(prepareRecord(guessed, body, 'create')).toEqual({
      ok: true,
      data: { title: 'Bled', gear_items: ['tent'], nights: 3, done: false },
    });
    prepareRecord(guessed, { nights: 4 }, 'update');
    expect(seen).toEqual(['Trip.gear_items (not the inferred type)', 'Trip.nights']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    onUndeclaredField(() => undefined);
  });

  it('bounds what it keeps: undeclared fields and size, on the record as merged', () => {
    const keys = (n: number, prefix = 'k') =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 1]));
    expect(prepareRecord(guessed, keys(MAX_UNDECLARED_FIELDS), 'update').ok).toBe(true);
    expect(prepareRecord(guessed, keys(MAX_UNDECLARED_FIELDS + 1), 'update')).toEqual({
      ok: false,
      message: expect.stringContaining(`at most ${MAX_UNDECLARED_FIELDS}`),
    });
    expect(prepareRecord(guessed, { title: 'x'.repeat(MAX_INFERRED_RECORD_BYTES) }, 'create')).toEqual({
      ok: false,
      message: 'The record would be larger than 1 MB as JSON',
    });
    expect(inferredRecordProblem({ ...guessed, inferred: false }, keys(500))).toBeNull();
  });

  it('a declared schema still drops unknown fields and refuses a wrong type', () => {
    const declared = { ...guessed, inferred: false };
    expect(prepareRecord(declared, { title: 'a', nights: 3 }, 'create')).toEqual({
      ok: true,
      data: { title: 'a', done: false },
    });
    expect(prepareRecord(declared, { gear_items: ['tent'] }, 'update').ok).toBe(false);
  });
});
