// Turning one table cell into the type its schema property asks for. A cell that cannot be read as
// that type is an error for its row, named with the value, never a guess.
import { typeOf, type PropertySchema } from './schema-shape';

/** Coerced is a cell's value for the row, or why it cannot be one; `empty` cells are left out. */
export type Coerced = { ok: true; value: unknown } | { ok: false; message: string } | { empty: true };

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'x', 'ja', 'oui', 'si', 'on', 'checked']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'nein', 'non', 'off', 'unchecked']);
// Excel counts days from 1899-12-30 (its 1900 leap-year bug included).
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

const shown = (value: unknown) => JSON.stringify(String(value).slice(0, 40));
const fail = (message: string): Coerced => ({ ok: false, message });

/**
 * MAX_NUMBER_CHARS bounds the text read as a number or a date: no number or date is longer (units and
 * spaces included), and a longer cell is refused before any scan of it.
 */
export const MAX_NUMBER_CHARS = 64;

const isDigit = (code: number) => code >= 48 && code <= 57;
// + - . , and digits may start a number; only digits, dots and commas may end one.
const mayStart = (code: number) => isDigit(code) || code === 43 || code === 45 || code === 46 || code === 44;
const mayEnd = (code: number) => isDigit(code) || code === 46 || code === 44;

/** numberPart drops currency signs and units around a number with two index scans (linear, unlike a regex anchored on one side). */
function numberPart(text: string): string {
  let start = 0;
  while (start < text.length && !mayStart(text.charCodeAt(start))) start++;
  let end = text.length;
  while (end > start && !mayEnd(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/** parseNumber reads 1234.5, "1,234.50", "1.234,50", "1234,50", "€ 12", "12%"-free text; else null. */
export function parseNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (trimmed.length > MAX_NUMBER_CHARS) return null;
  let text = numberPart(trimmed.replace(/[\s\u00a0'’]/g, ''));
  if (!/^[+-]?[\d.,]+$/.test(text) || !/\d/.test(text)) return null;
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    // Whichever comes last is the decimal mark; the other groups thousands.
    text = lastComma > lastDot ? text.replace(/\./g, '').replace(',', '.') : text.replace(/,/g, '');
  } else if (lastComma >= 0) {
    const groups = text.split(',');
    // "1,234,567" or "1,234" groups thousands; "1234,5" and "12,50" are decimal commas.
    const thousands = groups.length > 2 || (groups[1]?.length === 3 && groups[0] !== '0' && groups[0] !== '');
    text = thousands ? text.replace(/,/g, '') : text.replace(',', '.');
  } else if ((text.match(/\./g) ?? []).length > 1) {
    text = text.replace(/\./g, ''); // "1.234.567"
  }
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : null;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** parseDate reads a Date, an Excel serial, ISO text, or an unambiguous d/m/y text; else a message. */
export function parseDate(value: unknown): Date | string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'not a valid date' : value;
  if (typeof value === 'number') {
    if (value < 1 || value > 2_958_465) return `${value} is not a date`;
    return new Date(EXCEL_EPOCH_MS + Math.round(value * DAY_MS));
  }
  const text = String(value).trim();
  if (text.length > MAX_NUMBER_CHARS) return `${shown(text)} is not a date (use YYYY-MM-DD)`;
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
    return Number.isNaN(date.getTime()) ? `${shown(text)} is not a valid date` : date;
  }
  const parts = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4})$/.exec(text);
  if (!parts) return `${shown(text)} is not a date (use YYYY-MM-DD)`;
  const [, a = '', separator, b = '', year = ''] = parts;
  const first = Number(a);
  const second = Number(b);
  // Dotted dates are day-first (European); a slash is only read when one side cannot be a month.
  let day: number;
  let month: number;
  if (separator === '.' || first > 12) [day, month] = [first, second];
  else if (second > 12) [day, month] = [second, first];
  else return `${shown(text)} is ambiguous (day or month first?): use YYYY-MM-DD`;
  const date = new Date(Date.UTC(Number(year), month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return `${shown(text)} is not a valid date`;
  return date;
}

function coerceScalar(value: unknown, schema: PropertySchema): Coerced {
  const type = typeOf(schema);
  if (type === 'number' || type === 'integer') {
    const number = parseNumber(value);
    if (number === null) return fail(`${shown(value)} is not a number`);
    if (type === 'integer' && !Number.isInteger(number)) return fail(`${shown(value)} is not a whole number`);
    return { ok: true, value: number };
  }
  if (type === 'boolean') {
    if (typeof value === 'boolean') return { ok: true, value };
    const word = String(value).trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return { ok: true, value: true };
    if (FALSE_WORDS.has(word)) return { ok: true, value: false };
    return fail(`${shown(value)} is not yes/no`);
  }
  if (schema.format === 'date' || schema.format === 'date-time') {
    const date = parseDate(value);
    if (typeof date === 'string') return fail(date);
    return { ok: true, value: schema.format === 'date' ? isoDate(date) : date.toISOString() };
  }
  if (type === 'object') return fail('nested objects are not read from a table cell');
  // Strings (and untyped properties): dates from spreadsheets as YYYY-MM-DD, everything else as typed.
  if (value instanceof Date) {
    const midnight = value.getUTCHours() === 0 && value.getUTCMinutes() === 0 && value.getUTCSeconds() === 0;
    return { ok: true, value: midnight ? isoDate(value) : value.toISOString() };
  }
  return { ok: true, value: type === 'string' || typeof value === 'string' ? String(value).trim() : value };
}

function checkEnum(result: Coerced, schema: PropertySchema): Coerced {
  if (!('ok' in result) || !result.ok || !Array.isArray(schema.enum)) return result;
  if (schema.enum.includes(result.value)) return result;
  const wanted = normaliseWord(result.value);
  const found = schema.enum.find((option) => normaliseWord(option) === wanted);
  if (found !== undefined) return { ok: true, value: found };
  return fail(`${shown(result.value)} is not one of ${schema.enum.map(String).join(', ').slice(0, 120)}`);
}

function normaliseWord(value: unknown): string {
  return String(value).trim().toLowerCase();
}

/** isBlank says whether a cell holds nothing (null, empty or whitespace text). */
export function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** coerceCell reads one cell as schema asks: numbers, integers, booleans, dates, enums, lists. */
export function coerceCell(value: unknown, schema: PropertySchema): Coerced {
  if (isBlank(value)) return { empty: true };
  if (typeOf(schema) === 'array') {
    const items = Array.isArray(value)
      ? value
      : String(value)
          .split(/[;,|]/)
          .map((part) => part.trim())
          .filter(Boolean);
    const out: unknown[] = [];
    for (const item of items) {
      const coerced = schema.items
        ? checkEnum(coerceScalar(item, schema.items), schema.items)
        : { ok: true as const, value: item };
      if ('ok' in coerced && !coerced.ok) return coerced;
      if ('ok' in coerced) out.push(coerced.value);
    }
    return { ok: true, value: out };
  }
  return checkEnum(coerceScalar(value, schema), schema);
}
