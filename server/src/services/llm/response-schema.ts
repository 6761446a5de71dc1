// InvokeLLM's `response_json_schema`: bounded before ajv compiles it (the schema is the caller's, so its size,
// depth, references and patterns are hostile input), compiled validators cached by the schema's text.
import { Ajv, type CodeOptions, type ErrorObject, type ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';
import { InvalidInputError } from '../../lib/errors';

/** SCHEMA_LIMITS bound a response schema: far above what apps send (a few KB, depth < 8). */
export const SCHEMA_LIMITS = { maxChars: 32_768, maxDepth: 16, maxNodes: 2_000 };

/**
 * PATTERN_LIMITS bound the schema's regular expressions. RE2 matches in linear time, but compiling is paid
 * up front and synchronously, and grows with every counted repeat (`(.{0,1000}){30}` is 30,000 states): so
 * each pattern is short, there are few, and the product of its repeat counts (an over-estimate of how far
 * they expand) stays small. Real apps' patterns (`^\d{5}$`, `^[A-Z]{2}\d{6,10}$`) are far inside.
 */
export const PATTERN_LIMITS = { maxCount: 20, maxChars: 500, maxExpansion: 1_000 };

const CACHE_SIZE = 200;

// Patterns run on RE2 (linear time): the model's answer is steered by the caller's prompt, so a
// backtracking pattern could be made to hang the event loop on it.
const linearRegExp: NonNullable<CodeOptions['regExp']> = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    // ajv shares compiled patterns by their toString(): without one of its own, every pattern would be
    // "[object Object]" and all would run the first pattern ever compiled.
    return { test: (text: string) => compiled.test(text), toString: () => `/${pattern}/u` };
  },
  { code: 'linear-regexp' },
);

const ajv = new Ajv({ strict: false, allErrors: true, code: { regExp: linearRegExp } });
/** compiled maps a schema's text to its validator and the object ajv keeps it under (removed on eviction). */
const compiled = new Map<string, { validate: ValidateFunction; schema: object }>();

/** checkPattern throws InvalidInputError when a schema pattern would be costly to compile. */
function checkPattern(pattern: string): void {
  if (pattern.length > PATTERN_LIMITS.maxChars) {
    throw new InvalidInputError(
      `response_json_schema has a pattern longer than ${PATTERN_LIMITS.maxChars} characters`,
    );
  }
  let expansion = 1;
  for (const repeat of pattern.matchAll(/\{(\d{1,9})(?:,(\d{0,9}))?\}/g)) {
    expansion *= Math.max(1, Number(repeat[2] || repeat[1]));
    if (expansion > PATTERN_LIMITS.maxExpansion) {
      throw new InvalidInputError(
        `response_json_schema has a pattern whose counted repeats ({n,m}) multiply past ${PATTERN_LIMITS.maxExpansion}`,
      );
    }
  }
}

/** checkSchemaBounds throws InvalidInputError when schema is too large, too deep or refers outside itself. */
export function checkSchemaBounds(schema: object): string {
  const text = JSON.stringify(schema);
  if (text.length > SCHEMA_LIMITS.maxChars) {
    throw new InvalidInputError(
      `response_json_schema is larger than ${SCHEMA_LIMITS.maxChars} characters of JSON`,
    );
  }
  let nodes = 0;
  let patterns = 0;
  const pattern = (text: string) => {
    if (++patterns > PATTERN_LIMITS.maxCount) {
      throw new InvalidInputError(`response_json_schema has more than ${PATTERN_LIMITS.maxCount} patterns`);
    }
    checkPattern(text);
  };
  const walk = (value: unknown, depth: number): void => {
    if (depth > SCHEMA_LIMITS.maxDepth) {
      throw new InvalidInputError(
        `response_json_schema is nested deeper than ${SCHEMA_LIMITS.maxDepth} levels`,
      );
    }
    if (++nodes > SCHEMA_LIMITS.maxNodes) {
      throw new InvalidInputError(`response_json_schema has more than ${SCHEMA_LIMITS.maxNodes} parts`);
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      // Only references inside the schema: ajv would try to load any other as a schema it does not have.
      if (key === '$ref' && (typeof child !== 'string' || !child.startsWith('#'))) {
        throw new InvalidInputError('response_json_schema may only use $ref within itself ("#/…")');
      }
      if (key === 'pattern' && typeof child === 'string') pattern(child);
      if (key === 'patternProperties' && typeof child === 'object' && child !== null) {
        Object.keys(child).forEach(pattern);
      }
      walk(child, depth + 1);
    }
  };
  walk(schema, 0);
  return text;
}

/** compileResponseSchema bounds and compiles schema; an invalid schema is a 400 naming ajv's reason. */
export function compileResponseSchema(schema: object): ValidateFunction {
  const text = checkSchemaBounds(schema);
  const known = compiled.get(text);
  if (known) return known.validate;
  // $id would register the schema globally in ajv (equal ids from callers would clash), and a $schema
  // ajv does not hold (draft 2020-12) would fail the compile: both are dropped, the rest is checked.
  const { $id: _id, $schema: _schema, ...rest } = schema as Record<string, unknown>;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(rest);
  } catch (error) {
    // ajv keeps every schema it was given (failed ones too) until told otherwise.
    ajv.removeSchema(rest);
    throw new InvalidInputError(
      `response_json_schema is not a valid JSON schema: ${(error as Error).message.slice(0, 200)}`,
    );
  }
  if (compiled.size >= CACHE_SIZE) {
    const [oldestText, oldest] = compiled.entries().next().value ?? [];
    if (oldestText !== undefined && oldest) {
      compiled.delete(oldestText);
      ajv.removeSchema(oldest.schema);
    }
  }
  compiled.set(text, { validate, schema: rest });
  return validate;
}

/** describeErrors names what did not validate, briefly (`/items/0/age must be integer`). */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'the answer is not valid';
  const shown = errors
    .slice(0, 5)
    .map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`);
  return shown.join('; ') + (errors.length > 5 ? '; …' : '');
}
