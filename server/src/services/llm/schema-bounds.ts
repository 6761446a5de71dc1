// A caller's JSON schema (InvokeLLM's `response_json_schema`, ExtractDataFromUploadedFile's `json_schema`) is
// hostile input: its size, depth, references and patterns are bounded before ajv compiles it. Its size is
// measured as the tree ajv would walk, each `$ref` counted as what it points to: chained `anyOf: [$ref,
// $ref]` definitions are 1.7 KB of text but 2^24 schemas to validate against.
import { InvalidInputError } from '../../lib/errors';

/** SCHEMA_LIMITS bound a caller's schema: far above what apps send (a few KB, depth < 8, a few $refs). */
export const SCHEMA_LIMITS = {
  /** maxChars bounds the schema's JSON text. */
  maxChars: 32_768,
  /** maxDepth bounds the nesting of the schema's JSON (objects and arrays). */
  maxDepth: 16,
  /** maxNodes bounds the JSON values the schema holds. */
  maxNodes: 2_000,
  /** maxExpandedNodes bounds the subschemas validation may visit, each `$ref` counted as its target's. */
  maxExpandedNodes: 10_000,
  /** maxExpandedDepth bounds subschemas nested in subschemas, through `$ref`s. */
  maxExpandedDepth: 32,
};

/**
 * PATTERN_LIMITS bound the schema's regular expressions. RE2 matches in linear time, but compiling is paid
 * up front and grows with every counted repeat (`(.{0,1000}){30}` is 30,000 states): so each pattern is
 * short, there are few, and the product of its repeat counts (an over-estimate of how far they expand)
 * stays small. Real apps' patterns (`^\d{5}$`, `^[A-Z]{2}\d{6,10}$`) are far inside.
 */
export const PATTERN_LIMITS = { maxCount: 20, maxChars: 500, maxExpansion: 1_000 };

// The keywords whose value is one subschema, a list of them, or a map of names to them (drafts 07 to 2020-12).
const ONE = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAP = ['dependencies', 'dependentSchemas', 'patternProperties', 'properties'];
// Keywords that would make a `$ref` resolve somewhere else than a JSON pointer into this schema.
const RELOCATING = ['$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveRef', '$recursiveAnchor'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** subschemasOf lists the subschemas a schema applies (definitions are reached only through `$ref`). */
function subschemasOf(schema: Record<string, unknown>): unknown[] {
  const found: unknown[] = [];
  for (const key of ONE)
    if (isObject(schema[key]) || typeof schema[key] === 'boolean') found.push(schema[key]);
  for (const key of LIST) if (Array.isArray(schema[key])) found.push(...(schema[key] as unknown[]));
  for (const key of MAP) {
    const map = schema[key];
    // `dependencies` values may be lists of property names: those are no schema.
    if (isObject(map)) found.push(...Object.values(map).filter((value) => !Array.isArray(value)));
  }
  return found;
}

/** checkPattern throws InvalidInputError when a schema pattern would be costly to compile. */
function checkPattern(pattern: string, field: string): void {
  if (pattern.length > PATTERN_LIMITS.maxChars) {
    throw new InvalidInputError(`${field} has a pattern longer than ${PATTERN_LIMITS.maxChars} characters`);
  }
  let expansion = 1;
  for (const repeat of pattern.matchAll(/\{(\d{1,9})(?:,(\d{0,9}))?\}/g)) {
    expansion *= Math.max(1, Number(repeat[2] || repeat[1]));
    if (expansion > PATTERN_LIMITS.maxExpansion) {
      throw new InvalidInputError(
        `${field} has a pattern whose counted repeats ({n,m}) multiply past ${PATTERN_LIMITS.maxExpansion}`,
      );
    }
  }
}

/** checkRawShape bounds the schema as JSON (depth first, so that nothing after it recurses deeply). */
function checkRawShape(schema: object, field: string): void {
  let nodes = 0;
  let patterns = 0;
  const pattern = (text: string) => {
    if (++patterns > PATTERN_LIMITS.maxCount) {
      throw new InvalidInputError(`${field} has more than ${PATTERN_LIMITS.maxCount} patterns`);
    }
    checkPattern(text, field);
  };
  const walk = (value: unknown, depth: number): void => {
    if (depth > SCHEMA_LIMITS.maxDepth) {
      throw new InvalidInputError(`${field} is nested deeper than ${SCHEMA_LIMITS.maxDepth} levels`);
    }
    if (++nodes > SCHEMA_LIMITS.maxNodes) {
      throw new InvalidInputError(`${field} has more than ${SCHEMA_LIMITS.maxNodes} parts`);
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      // Only references inside the schema: ajv would try to load any other as a schema it does not have.
      if (key === '$ref' && (typeof child !== 'string' || !/^#(\/|$)/.test(child))) {
        throw new InvalidInputError(
          `${field} may only use $ref within itself, as a JSON pointer such as "#/$defs/name"`,
        );
      }
      if (key === 'pattern' && typeof child === 'string') pattern(child);
      if (key === 'patternProperties' && isObject(child)) Object.keys(child).forEach(pattern);
      walk(child, depth + 1);
    }
  };
  walk(schema, 0);
}

/** resolvePointer finds what a `#/…` reference points to in root, or throws naming the reference. */
function resolvePointer(root: object, ref: string, field: string): unknown {
  let target: unknown = root;
  for (const encoded of ref.slice(1).split('/').slice(1)) {
    let token: string;
    try {
      token = decodeURIComponent(encoded).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      throw new InvalidInputError(
        `${field} has a $ref that is not a valid JSON pointer: ${ref.slice(0, 100)}`,
      );
    }
    const next =
      typeof target === 'object' && target !== null ? (target as Record<string, unknown>)[token] : undefined;
    if (next === undefined || !Object.hasOwn(target as object, token)) {
      throw new InvalidInputError(`${field} has a $ref to nothing: ${ref.slice(0, 100)}`);
    }
    target = next;
  }
  return target;
}

interface Size {
  nodes: number;
  depth: number;
}

/**
 * checkNoRelocation refuses keywords that move where a `$ref` points (or register a name in ajv for every
 * later schema) anywhere below the top, definitions included: references are then JSON pointers into this
 * schema, as checkExpandedSize reads them. The walk's depth is bounded by checkRawShape.
 */
function checkNoRelocation(root: object, field: string): void {
  const walk = (schema: unknown): void => {
    if (!isObject(schema)) return;
    const relocating = schema === root ? undefined : RELOCATING.find((key) => key in schema);
    if (relocating)
      throw new InvalidInputError(`${field} may use ${relocating} only at its top level: remove it`);
    const definitions = [schema.$defs, schema.definitions].flatMap((map) =>
      isObject(map) ? Object.values(map) : [],
    );
    for (const child of [...subschemasOf(schema), ...definitions]) walk(child);
  };
  walk(root);
}

/**
 * checkExpandedSize walks the schema as validation would, through its `$ref`s, each subschema measured once
 * (so the walk is linear in the schema's text): a `$ref` back to a schema it sits in is recursion, refused;
 * the whole expanded tree is bounded in nodes and depth.
 */
function checkExpandedSize(root: object, field: string): void {
  const measured = new Map<object, Size>();
  const open = new Set<object>();
  const measure = (schema: unknown, level: number): Size => {
    if (!isObject(schema)) return { nodes: 1, depth: 1 };
    const known = measured.get(schema);
    if (
      level > SCHEMA_LIMITS.maxExpandedDepth ||
      (known && level + known.depth - 1 > SCHEMA_LIMITS.maxExpandedDepth)
    ) {
      throw new InvalidInputError(
        `${field} nests subschemas deeper than ${SCHEMA_LIMITS.maxExpandedDepth} levels (counting through $ref): flatten it`,
      );
    }
    if (known) return known;
    if (open.has(schema)) {
      throw new InvalidInputError(
        `${field} is recursive (a $ref leads back to a schema that contains it): describe a fixed depth instead`,
      );
    }
    open.add(schema);
    const size: Size = { nodes: 1, depth: 1 };
    const children = subschemasOf(schema).map((child) => ({ child, deeper: 1 }));
    // A $ref stands where its target would be written: the target is nested no deeper than the $ref.
    if (typeof schema.$ref === 'string') {
      children.push({ child: resolvePointer(root, schema.$ref, field), deeper: 0 });
    }
    for (const { child, deeper } of children) {
      const inner = measure(child, level + deeper);
      size.nodes += inner.nodes;
      size.depth = Math.max(size.depth, inner.depth + deeper);
      if (size.nodes > SCHEMA_LIMITS.maxExpandedNodes) {
        throw new InvalidInputError(
          `${field} expands to more than ${SCHEMA_LIMITS.maxExpandedNodes} subschemas (each $ref counted as the schema it points to): simplify it`,
        );
      }
    }
    open.delete(schema);
    measured.set(schema, size);
    return size;
  };
  measure(root, 1);
}

/**
 * checkJsonSchema throws an InvalidInputError (a 400 naming field and what to change) when a caller's schema
 * is too large, too deep, expands too far through `$ref`s, is recursive, refers outside itself or has
 * costly patterns; it returns the schema's JSON text. Linear in the schema's size: safe on the event loop.
 */
export function checkJsonSchema(schema: object, field: string): string {
  checkRawShape(schema, field);
  const text = JSON.stringify(schema);
  if (text.length > SCHEMA_LIMITS.maxChars) {
    throw new InvalidInputError(`${field} is larger than ${SCHEMA_LIMITS.maxChars} characters of JSON`);
  }
  checkNoRelocation(schema, field);
  checkExpandedSize(schema, field);
  return text;
}
