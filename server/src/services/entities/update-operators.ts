// Over 300 lines on purpose: the update operators ($set, $inc, $push, …) side by side, each small; their
// shared checks would scatter if split.
import { InvalidInputError } from '../../lib/errors';
import { RecordValidationError } from './entity-errors';
import {
  hiddenField,
  hiddenLoss,
  holdsHidden,
  isHiddenPath,
  keepHidden,
  refuseHiddenWithin,
} from './field-rules';

// Mongo-style update operators for updateMany, applied to one record's data in code. The records they
// apply to are chosen in SQL (the caller's query AND the update rule); `parseUpdate` rejects a malformed
// update before anything is read (400), `applyUpdate` fails on a record whose current value the operator
// cannot work on (422, e.g. `$inc` on a string).
// Over 300 lines on purpose: one table of operators, each with its parse and apply side by side, reads
// better whole than split by operator.

type Data = Record<string, unknown>;

/** UPDATE_OPERATORS are the operators updateMany accepts; anything else is a 400. */
export const UPDATE_OPERATORS = [
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$currentDate',
  '$addToSet',
  '$push',
  '$pull',
] as const;
type Operator = (typeof UPDATE_OPERATORS)[number];

/** ParsedUpdate is a checked update: one entry per (operator, path). */
export interface ParsedUpdate {
  steps: { op: Operator; path: string[]; value: unknown }[];
}

const SEGMENT = /^[^$.][^.]{0,127}$/;
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_STEPS = 200;
/** MAX_OPERAND_ITEMS caps `$each` and `$in` lists: each item is compared with a whole stored array. */
export const MAX_OPERAND_ITEMS = 1000;
/**
 * MAX_ARRAY_WORK caps the array elements (stored and operand) the array operators of one updateMany visit
 * over all its records, so a request's cost on the main thread stays bounded (about a few hundred ms).
 */
export const MAX_ARRAY_WORK = 200_000;

const bad = (message: string): never => {
  throw new InvalidInputError(`Invalid update: ${message}`);
};

function isPlainObject(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function splitPath(field: string): string[] {
  const segments = field.split('.');
  if (!segments.every((segment) => SEGMENT.test(segment) && !FORBIDDEN_SEGMENTS.has(segment))) {
    bad(`"${field}" is not a valid field path`);
  }
  return segments;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function eachValues(op: string, field: string, value: unknown): unknown[] {
  if (isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$'))) {
    const keys = Object.keys(value);
    if (keys.length !== 1 || keys[0] !== '$each') bad(`${op} on "${field}" supports only the $each modifier`);
    if (!Array.isArray(value.$each)) bad(`${op} $each on "${field}" needs an array`);
    const each = value.$each as unknown[];
    if (each.length > MAX_OPERAND_ITEMS)
      bad(`${op} $each on "${field}" takes at most ${MAX_OPERAND_ITEMS} items`);
    return each;
  }
  return [value];
}

/** parseUpdate checks an updateMany `data` object; each field may appear in one operator only. */
export function parseUpdate(data: unknown): ParsedUpdate {
  if (!isPlainObject(data)) return bad('data must be an object of update operators such as {"$set": {...}}');
  const steps: ParsedUpdate['steps'] = [];
  const seen: string[] = [];
  const claim = (field: string) => {
    for (const other of seen) {
      if (other === field || other.startsWith(`${field}.`) || field.startsWith(`${other}.`)) {
        bad(`"${field}" appears in more than one operator`);
      }
    }
    seen.push(field);
  };
  for (const [name, fields] of Object.entries(data)) {
    const op = UPDATE_OPERATORS.find((known) => known === name);
    if (!op) return bad(`unknown update operator "${name}" (supported: ${UPDATE_OPERATORS.join(' ')})`);
    if (!isPlainObject(fields)) return bad(`${op} needs an object of fields`);
    for (const [field, value] of Object.entries(fields)) {
      if (steps.length >= MAX_STEPS) bad(`more than ${MAX_STEPS} field updates`);
      const path = splitPath(field);
      claim(field);
      if ((op === '$inc' || op === '$mul') && !isNumber(value)) bad(`${op} on "${field}" needs a number`);
      if ((op === '$min' || op === '$max') && !(isNumber(value) || typeof value === 'string')) {
        bad(`${op} on "${field}" needs a number or a string`);
      }
      if (op === '$rename') {
        if (typeof value !== 'string') bad(`$rename on "${field}" needs the new field name`);
        const to = value as string;
        splitPath(to);
        if (to === field) bad(`$rename of "${field}" to itself`);
        claim(to);
        steps.push({ op, path, value: splitPath(to) });
        continue;
      }
      if (op === '$currentDate') {
        const ok =
          value === true || (isPlainObject(value) && (value.$type === 'date' || value.$type === 'timestamp'));
        if (!ok) bad(`$currentDate on "${field}" needs true or {"$type": "date"}`);
      }
      if (op === '$addToSet' || op === '$push') eachValues(op, field, value);
      if (op === '$pull' && isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$'))) {
        const keys = Object.keys(value);
        if (keys.length !== 1 || keys[0] !== '$in' || !Array.isArray(value.$in)) {
          bad(`$pull on "${field}" supports a value or {"$in": [...]}`);
        }
        if ((value.$in as unknown[]).length > MAX_OPERAND_ITEMS) {
          bad(`$pull $in on "${field}" takes at most ${MAX_OPERAND_ITEMS} items`);
        }
      }
      steps.push({ op, path, value });
    }
  }
  if (steps.length === 0) bad('data names no field to update');
  return { steps };
}

function parentOf(data: Data, path: string[], create: boolean): Data | null {
  let current: Data = data;
  for (const key of path.slice(0, -1)) {
    const next = Object.hasOwn(current, key) ? current[key] : undefined;
    if (isPlainObject(next)) {
      current = next;
      continue;
    }
    if (!create) return null;
    if (next !== undefined && next !== null) {
      throw new RecordValidationError(`Error in field ${path.join('.')}: ${key} is not an object`);
    }
    const fresh: Data = {};
    current[key] = fresh;
    current = fresh;
  }
  return current;
}

function read(data: Data, path: string[]): unknown {
  const parent = parentOf(data, path, false);
  const key = path[path.length - 1] as string;
  return parent && Object.hasOwn(parent, key) ? parent[key] : undefined;
}

function write(data: Data, path: string[], value: unknown): void {
  const parent = parentOf(data, path, true) as Data;
  parent[path[path.length - 1] as string] = value;
}

function remove(data: Data, path: string[]): void {
  const parent = parentOf(data, path, false);
  if (parent) Reflect.deleteProperty(parent, path[path.length - 1] as string);
}

/**
 * memberKey is what array operators compare elements by: their JSON with object keys sorted, so equal
 * values match whatever their key order (PostgreSQL's jsonb reorders keys anyway), and a Set of keys
 * tests membership in linear time.
 */
function memberKey(value: unknown): string {
  return (
    JSON.stringify(value, (_key, inner: unknown) =>
      isPlainObject(inner)
        ? Object.fromEntries(
            Object.keys(inner)
              .sort()
              .map((key) => [key, inner[key]]),
          )
        : inner,
    ) ?? 'undefined'
  );
}

/** ArrayWork counts the array elements one updateMany's operators visit, across its records. */
export interface ArrayWork {
  spent: number;
}

export const newArrayWork = (): ArrayWork => ({ spent: 0 });

function spend(work: ArrayWork, elements: number): void {
  work.spent += elements;
  if (work.spent > MAX_ARRAY_WORK) {
    throw new InvalidInputError(
      `Invalid update: the array operators would visit more than ${MAX_ARRAY_WORK} array elements over the matched records; update fewer records or smaller arrays at a time`,
    );
  }
}

/** ReadView is the value at path as the caller may read it (undefined when hidden by a field read rule). */
export type ReadView = (path: string[], value: unknown) => unknown;

const seeAll: ReadView = (_path, value) => value;

/**
 * storedArray is the array at path for an array operator: the stored elements (hidden keys and all, so
 * writing it back loses nothing) with each one's visible view (what the operator compares with); a
 * value hidden as a whole reads as missing.
 */
function storedArray(stored: unknown, path: string[], op: string, view: ReadView, work: ArrayWork) {
  const current = view(path, stored);
  if (current === undefined || current === null) return { items: [] as unknown[], seen: [] as unknown[] };
  if (!Array.isArray(current) || !Array.isArray(stored)) {
    throw new RecordValidationError(`Error in field ${path.join('.')}: ${op} needs an array`);
  }
  spend(work, stored.length);
  return {
    items: [...(stored as unknown[])],
    seen: (stored as unknown[]).map((item, index) => view([...path, String(index)], item)),
  };
}

/** Operators that replace the value at their path with one they compute. */
const REPLACING = new Set<Operator>(['$unset', '$inc', '$mul', '$min', '$max', '$rename', '$currentDate']);

/**
 * applyUpdate returns a copy of data with update applied; now stamps `$currentDate`. Operators read
 * current values through view (what the caller may read), and never lose what the caller cannot see: an
 * operator on a path hidden from the caller (or a `$rename` onto one) is a 403, and so is one that would
 * remove or replace a value holding hidden keys (`$unset` or `$inc` of a parent, `$pull` of elements with
 * hidden keys, `$rename` of such a value or onto one). Array operators change the stored array (matching
 * elements by what the caller sees of them) and `$set` keeps hidden keys (see keepHidden). work counts
 * the array elements visited across the records of one updateMany (MAX_ARRAY_WORK).
 */
export function applyUpdate(
  before: Data,
  update: ParsedUpdate,
  now: Date,
  view: ReadView = seeAll,
  work: ArrayWork = newArrayWork(),
): Data {
  const data = structuredClone(before);
  for (const { op, path, value } of update.steps) {
    const field = path.join('.');
    if (isHiddenPath(path, view)) throw hiddenField(path, op);
    const stored = read(data, path);
    const current = view(path, stored);
    if (REPLACING.has(op) && holdsHidden(stored, path, view)) throw hiddenLoss(path, op);
    switch (op) {
      case '$set':
        write(data, path, keepHidden(stored, structuredClone(value), path, view));
        break;
      case '$unset':
        remove(data, path);
        break;
      case '$inc':
      case '$mul': {
        if (current !== undefined && current !== null && !isNumber(current)) {
          throw new RecordValidationError(`Error in field ${field}: ${op} needs a number`);
        }
        const base = isNumber(current) ? current : 0;
        write(data, path, op === '$inc' ? base + (value as number) : base * (value as number));
        break;
      }
      case '$min':
      case '$max': {
        if (current === undefined || current === null) {
          write(data, path, value);
          break;
        }
        if (typeof current !== typeof value) {
          throw new RecordValidationError(
            `Error in field ${field}: ${op} compares values of different types`,
          );
        }
        const smaller = (value as number | string) < (current as number | string);
        if (op === '$min' ? smaller : !smaller && value !== current) write(data, path, value);
        break;
      }
      case '$rename': {
        const target = value as string[];
        if (isHiddenPath(target, view)) throw hiddenField(target, op);
        if (holdsHidden(read(data, target), target, view)) throw hiddenLoss(target, `${op} onto`);
        if (current !== undefined) {
          refuseHiddenWithin(current, target, view, op);
          remove(data, path);
          write(data, target, current);
        }
        break;
      }
      case '$currentDate':
        write(data, path, now.toISOString());
        break;
      case '$addToSet': {
        const each = eachValues(op, field, value);
        const { items, seen } = storedArray(stored, path, op, view, work);
        spend(work, each.length);
        const present = new Set(seen.map(memberKey));
        for (const item of each) {
          const key = memberKey(item);
          if (present.has(key)) continue;
          refuseHiddenWithin(item, [...path, String(items.length)], view, op);
          items.push(structuredClone(item));
          present.add(key);
        }
        write(data, path, items);
        break;
      }
      case '$push': {
        const each = eachValues(op, field, value);
        const { items } = storedArray(stored, path, op, view, work);
        spend(work, each.length);
        for (const item of each) {
          refuseHiddenWithin(item, [...path, String(items.length)], view, op);
          items.push(structuredClone(item));
        }
        write(data, path, items);
        break;
      }
      case '$pull': {
        if (current === undefined || current === null) break;
        const { items, seen } = storedArray(stored, path, op, view, work);
        const drop =
          isPlainObject(value) && Array.isArray(value.$in) && Object.keys(value).length === 1
            ? (value.$in as unknown[])
            : [value];
        spend(work, drop.length);
        const gone = new Set(drop.map(memberKey));
        const kept = items.filter((item, index) => {
          if (!gone.has(memberKey(seen[index]))) return true;
          if (holdsHidden(item, [...path, String(index)], view)) throw hiddenLoss(path, '$pull elements of');
          return false;
        });
        write(data, path, kept);
        break;
      }
    }
  }
  return data;
}

/**
 * changesBetween returns after with every field present in before but gone from after set to undefined
 * (recursively), so field-level write rules see a removal as a change.
 */
export function changesBetween(before: Data, after: Data): Data {
  const out: Data = { ...after };
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) out[key] = undefined;
    else if (isPlainObject(before[key]) && isPlainObject(after[key])) {
      out[key] = changesBetween(before[key], after[key]);
    }
  }
  return out;
}
