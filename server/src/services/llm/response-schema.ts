// InvokeLLM's `response_json_schema`: bounded before ajv compiles it (the schema is the caller's, so its size,
// depth, references and patterns are hostile input), compiled validators cached by the schema's text.
import { Ajv, type CodeOptions, type ErrorObject, type ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';
import { InvalidInputError } from '../../lib/errors';

/** SCHEMA_LIMITS bound a response schema: far above what apps send (a few KB, depth < 8). */
export const SCHEMA_LIMITS = { maxChars: 32_768, maxDepth: 16, maxNodes: 2_000 };

const CACHE_SIZE = 200;

// Patterns run on RE2 (linear time): the model's answer is steered by the caller's prompt, so a
// backtracking pattern could be made to hang the event loop on it.
const linearRegExp: NonNullable<CodeOptions['regExp']> = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    return { test: (text: string) => compiled.test(text) };
  },
  { code: 'linear-regexp' },
);

const ajv = new Ajv({ strict: false, allErrors: true, code: { regExp: linearRegExp } });
const compiled = new Map<string, ValidateFunction>();

/** checkSchemaBounds throws InvalidInputError when schema is too large, too deep or refers outside itself. */
export function checkSchemaBounds(schema: object): string {
  const text = JSON.stringify(schema);
  if (text.length > SCHEMA_LIMITS.maxChars) {
    throw new InvalidInputError(
      `response_json_schema is larger than ${SCHEMA_LIMITS.maxChars} characters of JSON`,
    );
  }
  let nodes = 0;
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
  if (known) return known;
  let validate: ValidateFunction;
  try {
    // $id would register the schema globally in ajv (equal ids from callers would clash), and a $schema
    // ajv does not hold (draft 2020-12) would fail the compile: both are dropped, the rest is checked.
    const { $id: _id, $schema: _schema, ...rest } = schema as Record<string, unknown>;
    validate = ajv.compile(rest);
  } catch (error) {
    throw new InvalidInputError(
      `response_json_schema is not a valid JSON schema: ${(error as Error).message.slice(0, 200)}`,
    );
  }
  if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value ?? '');
  compiled.set(text, validate);
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
