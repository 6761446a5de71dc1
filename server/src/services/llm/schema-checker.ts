// What the schema worker (schema-worker.ts) does: compile a caller's bounded JSON schema with ajv (validators
// cached by the schema's text) and validate a model's bounded answer against it. It runs in the worker so
// that no schema or answer can hold the event loop; it is plain code, tested without a worker.
import { Ajv, type CodeOptions, type ErrorObject, type ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';

/** SchemaRequest asks the worker to compile schema (JSON text), or also to validate answer (JSON text). */
export type SchemaRequest =
  | { id: number; kind: 'compile'; schema: string }
  | { id: number; kind: 'validate'; schema: string; answer: string };

/** SchemaReply answers a request: ok, or the problem (with the schema's, when it does not compile). */
export type SchemaReply =
  { id: number; ok: true } | { id: number; ok: false; problem: string; schemaInvalid: boolean };

const CACHE_SIZE = 200;

// Patterns run on RE2 (linear time): the model's answer is steered by the caller's prompt, so a
// backtracking pattern could be made to run for as long as the deadline on it.
const linearRegExp: NonNullable<CodeOptions['regExp']> = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    // ajv shares compiled patterns by their toString(): without one of its own, every pattern would be
    // "[object Object]" and all would run the first pattern ever compiled.
    return { test: (text: string) => compiled.test(text), toString: () => `/${pattern}/u` };
  },
  { code: 'linear-regexp' },
);

/** describeErrors names what did not validate, briefly (`/items/0/age must be integer`). */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'the answer is not valid';
  const shown = errors
    .slice(0, 5)
    .map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`);
  return shown.join('; ') + (errors.length > 5 ? '; …' : '');
}

/** createSchemaChecker holds one ajv and its validators; answer() serves one request. */
export function createSchemaChecker() {
  // allErrors off: validation stops at the first failure (all errors of a branching schema are many).
  const ajv = new Ajv({ strict: false, allErrors: false, code: { regExp: linearRegExp } });
  /** compiled maps a schema's text to its validator and the object ajv keeps it under (removed on eviction). */
  const compiled = new Map<string, { validate: ValidateFunction; schema: object }>();

  function compile(text: string): ValidateFunction | string {
    const known = compiled.get(text);
    if (known) return known.validate;
    // $id would register the schema globally in ajv (equal ids from callers would clash), and a $schema
    // ajv does not hold (draft 2020-12) would fail the compile: both are dropped, the rest is checked.
    const { $id: _id, $schema: _schema, ...rest } = JSON.parse(text) as Record<string, unknown>;
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(rest);
    } catch (error) {
      // ajv keeps every schema it was given (failed ones too) until told otherwise.
      ajv.removeSchema(rest);
      return `is not a valid JSON schema: ${(error as Error).message.slice(0, 200)}`;
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

  return {
    answer(request: SchemaRequest): SchemaReply {
      const { id } = request;
      const validate = compile(request.schema);
      if (typeof validate === 'string') return { id, ok: false, problem: validate, schemaInvalid: true };
      if (request.kind === 'compile') return { id, ok: true };
      let value: unknown;
      try {
        value = JSON.parse(request.answer);
      } catch {
        return { id, ok: false, problem: 'the answer is not JSON', schemaInvalid: false };
      }
      if (validate(value)) return { id, ok: true };
      return { id, ok: false, problem: describeErrors(validate.errors), schemaInvalid: false };
    },
  };
}
