import { compileLinearPattern } from '../lib/linear-pattern';
import type { PropertySchema } from '../schemas/entity-project';

// Record bodies are checked against the entity's JSON-Schema-style properties. Unlike `base44 dev`, every
// constraint the schema states is enforced (enum, format, ranges, lengths, pattern, nested required).
// Unknown keys are dropped, as the SDK contract expects (stamps and extra fields a client sends back).
// Nothing here backtracks: formats are checked by linear code or anchored regexes without overlapping
// repeats, a schema `pattern` runs on RE2 (linear time), and each check first caps the string's length.

/** RecordShape is the part of an entity definition validation needs. */
export interface RecordShape {
  /** name is the entity's, for reports. */
  name?: string;
  properties: Record<string, PropertySchema>;
  required: string[];
  /**
   * inferred marks a schema guessed from the app's code (`entities infer` at start): a field it does not
   * declare, or whose value has another type than guessed, is kept as sent and reported
   * (undeclaredFieldSeen) rather than dropped or refused, so the next inference can correct it.
   */
  inferred?: boolean;
}

/** STAMPS are the fields the server sets itself: never taken from a body, inferred schema or not. */
const STAMPS = new Set(['id', 'created_date', 'updated_date', 'created_by', 'created_by_id', 'app_id']);
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * An inferred entity keeps fields its schema lacks, so its records are bounded here instead: at most
 * MAX_UNDECLARED_FIELDS such fields, and MAX_INFERRED_RECORD_BYTES as JSON, after each write is merged
 * (a signed-in user adding 1,000 new keys a request grew one record to 137 MB and PGlite out of memory).
 */
export const MAX_UNDECLARED_FIELDS = 100;
export const MAX_INFERRED_RECORD_BYTES = 1024 * 1024;

/** inferredRecordProblem says why data is too large for an inferred entity, or null (declared: null). */
export function inferredRecordProblem(shape: RecordShape, data: Record<string, unknown>): string | null {
  if (!shape.inferred) return null;
  const undeclared = Object.keys(data).filter((key) => !Object.hasOwn(shape.properties, key)).length;
  if (undeclared > MAX_UNDECLARED_FIELDS) {
    return `The record would hold ${undeclared} fields its inferred schema does not declare: at most ${MAX_UNDECLARED_FIELDS} (declare them in the entity's schema)`;
  }
  if (Buffer.byteLength(JSON.stringify(data)) > MAX_INFERRED_RECORD_BYTES) {
    return `The record would be larger than ${MAX_INFERRED_RECORD_BYTES / 1024 / 1024} MB as JSON`;
  }
  return null;
}

/** UndeclaredFieldSink hears each field an inferred entity was sent that its schema lacks. */
type UndeclaredFieldSink = (entity: string, field: string) => void;
let undeclaredSink: UndeclaredFieldSink = () => undefined;
const reported = new Set<string>();
const MAX_REPORTED = 1_000;

/** onUndeclaredField sets who hears of undeclared fields (the start-up log), each field once. */
export function onUndeclaredField(sink: UndeclaredFieldSink): void {
  undeclaredSink = sink;
}

const reportedPerEntity = new Map<string, number>();
const MAX_REPORTED_PER_ENTITY = 100;

function undeclaredFieldSeen(entity: string, field: string): void {
  const key = `${entity}.${field}`;
  if (reported.has(key) || reported.size >= MAX_REPORTED) return;
  // Per entity too: one entity's many new fields never silence another's.
  const count = reportedPerEntity.get(entity) ?? 0;
  if (count >= MAX_REPORTED_PER_ENTITY) return;
  reportedPerEntity.set(entity, count + 1);
  reported.add(key);
  undeclaredSink(
    entity,
    count + 1 === MAX_REPORTED_PER_ENTITY ? `${field} (the last reported for ${entity})` : field,
  );
}

class FieldProblem extends Error {}

/** MAX_EMAIL_LENGTH is the longest `format: email` value (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;
/** MAX_URI_LENGTH is the longest `format: uri` value. */
export const MAX_URI_LENGTH = 8192;
/** MAX_PATTERN_INPUT is the longest string a schema `pattern` is applied to; longer ones fail it. */
export const MAX_PATTERN_INPUT = 10_000;
const MAX_DATE_TIME_LENGTH = 64;
const WHITESPACE = /\s/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validDate(value: string): boolean {
  if (value.length !== 10) return false;
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** isEmail is `local@domain.tld` without whitespace and with one `@` (a linear scan, no regex backtracking). */
export function isEmail(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH || WHITESPACE.test(value)) return false;
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;
  const domain = value.slice(at + 1);
  // The domain needs a dot with something on both sides (the first character cannot be that dot).
  const dot = domain.indexOf('.', 1);
  return dot > 0 && dot < domain.length - 1;
}

function checkFormat(format: string, value: string): string | null {
  if (format === 'email' && !isEmail(value)) {
    return value.length > MAX_EMAIL_LENGTH
      ? `Input should be a valid email address (at most ${MAX_EMAIL_LENGTH} characters)`
      : 'Input should be a valid email address';
  }
  if (format === 'date' && !validDate(value)) return 'Input should be a valid date (YYYY-MM-DD)';
  if (
    format === 'date-time' &&
    !(value.length <= MAX_DATE_TIME_LENGTH && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))
  ) {
    return 'Input should be a valid date-time (ISO 8601)';
  }
  if (format === 'uri') {
    if (value.length > MAX_URI_LENGTH)
      return `Input should be a valid URI (at most ${MAX_URI_LENGTH} characters)`;
    try {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) return 'Input should be a valid URI';
      new URL(value);
    } catch {
      return 'Input should be a valid URI';
    }
  }
  return null;
}

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    default:
      return value === null;
  }
}

function checkValue(schema: PropertySchema, value: unknown, path: string, optional: boolean): unknown {
  const fail = (message: string): never => {
    throw new FieldProblem(`Error in field ${path}: ${message}`);
  };
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (value === null) {
    // NB: null clears an optional field (as Base44 apps do); a required one must hold a value.
    if (types.includes('null') || optional) return null;
    return fail('Field required');
  }
  if (value === '' && optional && (schema.format !== undefined || schema.enum !== undefined)) {
    // An empty optional input of a form: apps written against the hosted platform send "" for a date,
    // e-mail, link or choice left blank, and it accepts and stores it as sent (issue 19).
    if (types.length === 0 || types.includes('string')) return value;
  }
  if (types.length > 0 && !types.some((type) => matchesType(type, value))) {
    return fail(`Input should be a valid ${types.filter((type) => type !== 'null').join(' or ')}`);
  }
  if (schema.enum && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    return fail(`Input should be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) {
      fail(`String should have at least ${schema.minLength} characters`);
    }
    if (schema.maxLength !== undefined && length > schema.maxLength) {
      fail(`String should have at most ${schema.maxLength} characters`);
    }
    if (schema.pattern !== undefined) {
      if (value.length > MAX_PATTERN_INPUT) {
        fail(`String should have at most ${MAX_PATTERN_INPUT} characters to be checked against its pattern`);
      }
      if (!compileLinearPattern(schema.pattern).matcher(value).find()) {
        fail(`String should match pattern ${schema.pattern}`);
      }
    }
    const formatProblem = schema.format ? checkFormat(schema.format, value) : null;
    if (formatProblem) fail(formatProblem);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) fail(`Input should be ≥ ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) fail(`Input should be ≤ ${schema.maximum}`);
  }
  if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    return value.map((item, index) => checkValue(items, item, `${path}.${index}`, false));
  }
  if (isPlainObject(value) && schema.properties) {
    return checkObject(
      { properties: schema.properties, required: schema.required ?? [] },
      value,
      path,
      'create',
    );
  }
  return value;
}

function checkObject(
  shape: RecordShape,
  body: Record<string, unknown>,
  prefix: string,
  mode: 'create' | 'update',
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape.properties)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const required = shape.required.includes(key);
    let value = Object.hasOwn(body, key) ? body[key] : undefined;
    if (value === undefined && mode === 'create' && schema.default !== undefined) {
      value = structuredClone(schema.default);
    }
    if (value === undefined) {
      if (required && mode === 'create') throw new FieldProblem(`Error in field ${path}: Field required`);
      continue;
    }
    out[key] = checkValue(schema, value, path, !required);
  }
  return out;
}

/**
 * checkGuessed checks a body against an inferred schema: required fields and defaults as declared; a
 * field whose value the guess refuses, or one it does not know, is kept as sent and reported.
 */
function checkGuessed(shape: RecordShape, body: Record<string, unknown>, mode: 'create' | 'update') {
  const entity = shape.name ?? 'entity';
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    // `__proto__` would set the object's prototype rather than a field.
    if (value === undefined || STAMPS.has(key) || !FIELD_NAME.test(key) || key === '__proto__') continue;
    const schema = Object.hasOwn(shape.properties, key) ? shape.properties[key] : undefined;
    if (!schema) {
      data[key] = value;
      undeclaredFieldSeen(entity, key);
      continue;
    }
    try {
      data[key] = checkValue(schema, value, key, !shape.required.includes(key));
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      data[key] = value;
      undeclaredFieldSeen(entity, `${key} (not the inferred type)`);
    }
  }
  const tooLarge = inferredRecordProblem(shape, data);
  if (tooLarge) throw new FieldProblem(tooLarge);
  if (mode === 'create') {
    for (const [key, schema] of Object.entries(shape.properties)) {
      if (Object.hasOwn(data, key)) continue;
      if (schema.default !== undefined) data[key] = structuredClone(schema.default);
      else if (shape.required.includes(key)) throw new FieldProblem(`Error in field ${key}: Field required`);
    }
  }
  return data;
}

/** PreparedRecord is a body cut to the schema's fields (defaults applied on create), or the first problem. */
export type PreparedRecord = { ok: true; data: Record<string, unknown> } | { ok: false; message: string };

/**
 * prepareRecord validates body against the entity: on create every required field must hold a value and
 * defaults fill missing ones; on update only the fields sent are checked. Unknown keys are dropped.
 */
export function prepareRecord(shape: RecordShape, body: unknown, mode: 'create' | 'update'): PreparedRecord {
  if (!isPlainObject(body)) return { ok: false, message: 'The record must be a JSON object' };
  try {
    if (!shape.inferred) return { ok: true, data: checkObject(shape, body, '', mode) };
    return { ok: true, data: checkGuessed(shape, body, mode) };
  } catch (error) {
    if (error instanceof FieldProblem) return { ok: false, message: error.message };
    throw error;
  }
}

/** validateRecord returns the first problem of body against the entity, or null when it is valid. */
export function validateRecord(shape: RecordShape, body: unknown, mode: 'create' | 'update'): string | null {
  const result = prepareRecord(shape, body, mode);
  return result.ok ? null : result.message;
}
