// The fields one SDK entity call names, by method: what create/update write, what filter matches on, what
// list/filter sort by. Only values written in the call (or a plain object bound to a name) are read.
import type { ArgumentPlaceholder, Expression, Node, ObjectExpression, SpreadElement } from '@babel/types';
import { literalEvidence, nameRule, type Evidence } from './field-types';
import { plainProperties, unwrap } from './source-ast';

/** FieldSighting is one field named by a call, with what its value says of its type. */
export interface FieldSighting {
  field: string;
  evidence: Evidence;
}

/** ObjectValues maps a name to the object literals it holds (`const data = {...}`, form state). */
export type ObjectValues = ReadonlyMap<string, readonly ObjectExpression[]>;

type Argument = Expression | SpreadElement | ArgumentPlaceholder;

// A spread of a spread of ... is followed this deep: `form = { ...form }` must not loop.
const MAX_SPREAD_DEPTH = 4;
const ARRAY_OPERATORS = new Set(['$push', '$addToSet', '$pull']);

/** writtenFields are the fields of a value given to create/update: an object literal or a name bound to one. */
function writtenFields(argument: Node | undefined, objects: ObjectValues, depth = 0): FieldSighting[] {
  if (!argument || depth > MAX_SPREAD_DEPTH) return [];
  const value = unwrap(argument);
  if (value.type === 'Identifier') {
    return (objects.get(value.name) ?? []).flatMap((object) => writtenFields(object, objects, depth + 1));
  }
  if (value.type !== 'ObjectExpression') return [];
  const spreads = value.properties.flatMap((property) =>
    property.type === 'SpreadElement' ? writtenFields(property.argument, objects, depth + 1) : [],
  );
  const own = plainProperties(value.properties).map(({ key, value: fieldValue }) => ({
    field: key,
    evidence: literalEvidence(fieldValue),
  }));
  return [...spreads, ...own];
}

/** matchedFields are the fields of a filter query, through `$or`/`$and`/`$nor` and operator objects. */
function matchedFields(argument: Node | undefined, depth = 0): FieldSighting[] {
  if (!argument || depth > MAX_SPREAD_DEPTH) return [];
  const value = unwrap(argument);
  if (value.type !== 'ObjectExpression') return [];
  return plainProperties(value.properties).flatMap(({ key, value: operand }): FieldSighting[] => {
    if (key === '$or' || key === '$and' || key === '$nor') {
      return operand.type === 'ArrayExpression'
        ? operand.elements.flatMap((element) => (element ? matchedFields(element, depth + 1) : []))
        : [];
    }
    if (key.startsWith('$')) return [];
    // `meta.score` filters inside the object field `meta`.
    const [field = key, ...rest] = key.split('.');
    if (rest.length > 0) return [{ field, evidence: { type: 'object' } }];
    return [{ field, evidence: operandEvidence(field, operand) }];
  });
}

/** operandEvidence reads a filter value: a literal, an `{ $op: value }` object, or a list meaning "any of". */
function operandEvidence(field: string, operand: Expression): Evidence {
  const value = unwrap(operand);
  if (value.type === 'ObjectExpression') {
    const operators = plainProperties(value.properties);
    if (operators.length === 0 || !operators.every(({ key }) => key.startsWith('$')))
      return { type: 'object' };
    for (const { key, value: inner } of operators) {
      if (key === '$exists') continue;
      if (key === '$regex') return { type: 'string' };
      const evidence =
        key === '$in' || key === '$nin' || key === '$all'
          ? listEvidence(field, inner)
          : literalEvidence(inner);
      if (evidence.type) return evidence;
    }
    return {};
  }
  return value.type === 'ArrayExpression' ? listEvidence(field, value) : literalEvidence(value);
}

/** listEvidence reads a list in a filter: "any of" these values, unless the field's name says it is a list. */
function listEvidence(field: string, list: Node): Evidence {
  const evidence = literalEvidence(list);
  if (evidence.type !== 'array') return {};
  if (nameRule(field)?.type === 'array') return evidence;
  return evidence.items ? { type: evidence.items } : {};
}

/** sortedFields is the field a sort names: `'-created_date'`, `'name'`, or `{ sort: '...' }` options. */
function sortedFields(argument: Node | undefined): FieldSighting[] {
  if (!argument) return [];
  const value = unwrap(argument);
  if (value.type === 'ObjectExpression') {
    const sort = plainProperties(value.properties).find(({ key }) => key === 'sort');
    return sort ? sortedFields(sort.value) : [];
  }
  if (value.type !== 'StringLiteral') return [];
  const field = value.value.replace(/^[-+]/, '').split('.')[0] ?? '';
  return field ? [{ field, evidence: {} }] : [];
}

/** updateManyFields reads `updateMany`'s update: `{ $set: {...}, $inc: {...}, $push: {...} }`. */
function updateManyFields(argument: Node | undefined, objects: ObjectValues): FieldSighting[] {
  if (!argument) return [];
  const value = unwrap(argument);
  if (value.type !== 'ObjectExpression') return [];
  return plainProperties(value.properties).flatMap(({ key, value: inner }) => {
    // A plain key is a field set as it is (what `$set` would do).
    if (!key.startsWith('$')) return [{ field: key, evidence: literalEvidence(inner) }];
    const fields = writtenFields(inner, objects);
    if (!ARRAY_OPERATORS.has(key)) return fields;
    return fields.map(({ field, evidence }) => ({
      field,
      evidence: { type: 'array' as const, ...(evidence.type ? { items: evidence.type } : {}) },
    }));
  });
}

const listed = (argument: Node | undefined): Node[] => {
  const value = argument ? unwrap(argument) : undefined;
  return value?.type === 'ArrayExpression'
    ? value.elements.filter((element): element is Expression => element !== null)
    : [];
};

/** fieldSightingsOfCall lists the fields an entity method call names (none for get, delete, subscribe...). */
export function fieldSightingsOfCall(
  method: string,
  args: readonly Argument[],
  objects: ObjectValues,
): FieldSighting[] {
  const [first, second] = args;
  switch (method) {
    case 'create':
      return writtenFields(first, objects);
    case 'bulkCreate':
    case 'bulkUpdate':
      return listed(first).flatMap((element) => writtenFields(element, objects));
    case 'update':
      return writtenFields(second, objects);
    case 'updateMany':
      return [...matchedFields(first), ...updateManyFields(second, objects)];
    case 'filter':
      return [...matchedFields(first), ...sortedFields(second)];
    case 'list':
      return sortedFields(first);
    case 'deleteMany':
      return matchedFields(first);
    default:
      return [];
  }
}
