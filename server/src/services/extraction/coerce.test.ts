import { describe, expect, it } from 'vitest';
import { coerceCell, MAX_NUMBER_CHARS, parseDate, parseNumber } from './coerce';

describe('parseNumber', () => {
  it.each([
    [1234.5, 1234.5],
    ['1,234.50', 1234.5],
    ['1.234,50', 1234.5],
    ['1234,50', 1234.5],
    ['12,5', 12.5],
    ['1,234,567', 1234567],
    ['1.234.567', 1234567],
    ['€ 12.00', 12],
    ['12 kg', 12],
    ['-3', -3],
    [' 1 000 ', 1000],
  ])('reads %j as %j', (input, expected) => expect(parseNumber(input)).toBe(expected));

  it.each(['abc', '', '1-2', '--', 'NaN', true])('refuses %j', (input) =>
    expect(parseNumber(input)).toBeNull(),
  );

  it('reads at most MAX_NUMBER_CHARS characters as a number', () => {
    expect(parseNumber('1'.repeat(MAX_NUMBER_CHARS))).toBe(Number('1'.repeat(MAX_NUMBER_CHARS)));
    expect(parseNumber(` ${'1'.repeat(MAX_NUMBER_CHARS + 1)} `)).toBeNull();
    expect(parseNumber('EUR 1.234,50 netto')).toBe(1234.5);
  });
});

describe('parseDate', () => {
  const iso = (value: unknown) => {
    const date = parseDate(value);
    return typeof date === 'string' ? date : date.toISOString().slice(0, 10);
  };

  it('reads ISO text, Date objects, Excel serials and unambiguous day/month orders', () => {
    expect(iso('2026-03-15')).toBe('2026-03-15');
    expect(iso(new Date(Date.UTC(2026, 2, 15)))).toBe('2026-03-15');
    expect(iso(46096)).toBe('2026-03-15');
    expect(iso('15.03.2026')).toBe('2026-03-15');
    expect(iso('15/03/2026')).toBe('2026-03-15');
    expect(iso('03/15/2026')).toBe('2026-03-15');
  });

  it('names ambiguous and impossible dates instead of guessing', () => {
    expect(parseDate('03/04/2026')).toMatch(/ambiguous/);
    expect(parseDate('31.02.2026')).toMatch(/not a valid date/);
    expect(parseDate('next tuesday')).toMatch(/not a date/);
  });
});

describe('coerceCell', () => {
  it('coerces by type and format', () => {
    expect(coerceCell('42', { type: 'integer' })).toEqual({ ok: true, value: 42 });
    expect(coerceCell('4.2', { type: 'integer' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/whole/),
    });
    expect(coerceCell('Yes', { type: 'boolean' })).toEqual({ ok: true, value: true });
    expect(coerceCell('nein', { type: 'boolean' })).toEqual({ ok: true, value: false });
    expect(coerceCell('maybe', { type: 'boolean' })).toMatchObject({ ok: false });
    expect(coerceCell('2026-03-15', { type: 'string', format: 'date-time' })).toEqual({
      ok: true,
      value: '2026-03-15T00:00:00.000Z',
    });
    expect(coerceCell(new Date(Date.UTC(2026, 2, 15)), { type: 'string' })).toEqual({
      ok: true,
      value: '2026-03-15',
    });
    expect(coerceCell(7, { type: 'string' })).toEqual({ ok: true, value: '7' });
    expect(coerceCell('12,50', { type: ['number', 'null'] })).toEqual({ ok: true, value: 12.5 });
  });

  it('leaves blanks out and matches enums without regard to case', () => {
    expect(coerceCell('  ', { type: 'number' })).toEqual({ empty: true });
    expect(coerceCell(null, { type: 'string' })).toEqual({ empty: true });
    expect(coerceCell('HIGH', { type: 'string', enum: ['low', 'high'] })).toEqual({
      ok: true,
      value: 'high',
    });
    expect(coerceCell('urgent', { type: 'string', enum: ['low', 'high'] })).toMatchObject({ ok: false });
  });

  it('splits lists and coerces their items', () => {
    expect(coerceCell('a; b |c', { type: 'array', items: { type: 'string' } })).toEqual({
      ok: true,
      value: ['a', 'b', 'c'],
    });
    expect(coerceCell('1,x', { type: 'array', items: { type: 'number' } })).toMatchObject({ ok: false });
  });
});
