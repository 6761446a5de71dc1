// Field types for inferred entities: from the literal values the code writes, else from what a field's name
// usually means (`*_date`, `is_*`, `price`...), else string (the loosest type that still validates).
import type { Expression, Node } from '@babel/types';
import type { PropertySchema } from '../schemas/entity-project';

/** JsonSchemaProperty is one inferred property, in the entity file's JSON-Schema form. */
export type JsonSchemaProperty = Pick<PropertySchema, 'type' | 'format' | 'items'>;

/** ValueType is what a literal says about a field's type. */
export type ValueType = 'string' | 'number' | 'boolean' | 'array' | 'object';

/** Evidence is what one sighting of a field tells: a literal's type (if any) and whether it was `''`. */
export interface Evidence {
  type?: ValueType;
  items?: ValueType;
  emptyString?: boolean;
}

/** BUILT_IN_FIELDS are the fields every record has; an entity file must not declare them. */
export const BUILT_IN_FIELDS = new Set(['id', 'created_date', 'updated_date', 'created_by', 'created_by_id']);

const NUMBER_NAMES = new Set([
  'count',
  'amount',
  'price',
  'total',
  'quantity',
  'age',
  'score',
  'rating',
  'cost',
  'balance',
  'progress',
  'percent',
  'percentage',
  'duration',
  'weight',
  'height',
  'latitude',
  'longitude',
  'lat',
  'lng',
]);
const NUMBER_SUFFIXES =
  /_(count|amount|price|total|quantity|score|cost|minutes|hours|days|seconds|percent|lat|lng|latitude|longitude)$/;
const NUMBER_FUNCTIONS = new Set(['Number', 'parseInt', 'parseFloat']);

/** nameRule is the type a field's name suggests, or null when the name says nothing. */
export function nameRule(field: string): JsonSchemaProperty | null {
  const lower = field.toLowerCase();
  if (lower.endsWith('_at')) return { type: 'string', format: 'date-time' };
  if (lower === 'date' || lower.endsWith('_date')) return { type: 'string', format: 'date' };
  if (/^(is|has|can)_/.test(lower) || /^(is|has|can)[A-Z]/.test(field)) return { type: 'boolean' };
  if (NUMBER_NAMES.has(lower) || NUMBER_SUFFIXES.test(lower)) return { type: 'number' };
  if (lower === 'email' || lower.endsWith('_email')) return { type: 'string', format: 'email' };
  if (lower === 'url' || lower.endsWith('_url')) return { type: 'string', format: 'uri' };
  if (lower === 'tags' || lower === 'ids' || lower.endsWith('_ids'))
    return { type: 'array', items: { type: 'string' } };
  return null;
}

/** literalEvidence reads the type of a value expression when it is a literal (or plainly typed). */
export function literalEvidence(node: Expression | Node): Evidence {
  switch (node.type) {
    case 'StringLiteral':
      return node.value === '' ? { type: 'string', emptyString: true } : { type: 'string' };
    case 'TemplateLiteral':
      return { type: 'string' };
    case 'NumericLiteral':
      return { type: 'number' };
    case 'BooleanLiteral':
      return { type: 'boolean' };
    case 'ObjectExpression':
      return { type: 'object' };
    case 'ArrayExpression': {
      const kinds = new Set(
        node.elements.map((element) => (element ? literalEvidence(element).type : undefined)),
      );
      const [only] = [...kinds];
      return kinds.size === 1 && only ? { type: 'array', items: only } : { type: 'array' };
    }
    case 'UnaryExpression':
      if (node.operator === '!') return { type: 'boolean' };
      if (node.operator === '-' || node.operator === '+') return { type: 'number' };
      return {};
    case 'CallExpression':
      if (node.callee.type !== 'Identifier') return {};
      if (NUMBER_FUNCTIONS.has(node.callee.name)) return { type: 'number' };
      if (node.callee.name === 'Boolean') return { type: 'boolean' };
      if (node.callee.name === 'String') return { type: 'string' };
      return {};
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'ParenthesizedExpression':
      return literalEvidence(node.expression);
    default:
      return {};
  }
}

/**
 * propertyFor decides a field's schema from every sighting: the literals' type when they agree (the name's
 * type when they disagree and it is one of them, else string), else the name's type, else string. A format
 * comes from the name alone and is left out when the code writes `''` to the field: this server checks
 * formats, and would refuse the app's own empty value.
 */
export function propertyFor(field: string, sightings: Evidence[]): JsonSchemaProperty {
  const fromName = nameRule(field);
  const literalTypes = [...new Set(sightings.flatMap((sighting) => (sighting.type ? [sighting.type] : [])))];
  let type: ValueType;
  if (literalTypes.length === 1) type = literalTypes[0] as ValueType;
  else if (literalTypes.length > 1) {
    type = literalTypes.find((candidate) => candidate === fromName?.type) ?? 'string';
  } else type = (fromName?.type as ValueType | undefined) ?? 'string';
  const property: JsonSchemaProperty = { type };
  if (type === 'string' && fromName?.format && !sightings.some((sighting) => sighting.emptyString)) {
    property.format = fromName.format;
  }
  if (type === 'array') {
    const itemTypes = new Set(sightings.flatMap((sighting) => (sighting.items ? [sighting.items] : [])));
    const [only] = [...itemTypes];
    if (itemTypes.size === 1 && only) property.items = { type: only };
    else if (itemTypes.size === 0 && fromName?.items) property.items = fromName.items;
  }
  return property;
}
