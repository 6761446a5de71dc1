// A caller's schema for the model's structured answer (InvokeLLM's `response_json_schema`, extraction's
// `json_schema`): bounded on the event loop (linear checks), compiled and its answers validated in the schema
// workers, each under a deadline and a heap cap; the answer's shape is bounded before anything parses it.
import { InvalidInputError, UpstreamError } from '../../lib/errors';
import { answerShapeProblem } from './answer-bounds';
import { checkJsonSchema } from './schema-bounds';
import { createSchemaWorkers, type CheckOutcome, type SchemaWorkers } from './schema-workers';

/** AnswerCheck is a model's answer read against the schema: its value, or the problem to tell the model. */
export type AnswerCheck = { ok: true; value: unknown } | { ok: false; problem: string };

/** ResponseSchema is a bounded, compiled schema. */
export interface ResponseSchema {
  /**
   * check reads the model's answer: an answer past ANSWER_LIMITS is an UpstreamError (502) at once (a repair
   * would send it back to the model); a validation past its deadline or heap is an InvalidInputError.
   */
  check(answer: string): Promise<AnswerCheck>;
}

let shared: SchemaWorkers | null = null;

/**
 * stripFences takes the JSON out of a ```json fenced answer (models add them despite being told not to).
 * Index scans, not a regex: the answer is the model's, steered by the caller, and a pattern with two
 * `\s*`/`\n` runs around a lazy body backtracks quadratically on a fence followed by many newlines.
 */
export function stripFences(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('```') || !trimmed.endsWith('```') || trimmed.length < 6) return trimmed;
  const firstLineEnd = trimmed.indexOf('\n');
  if (firstLineEnd < 0) return trimmed;
  const language = trimmed.slice(3, firstLineEnd).trim().toLowerCase();
  if (language !== '' && language !== 'json') return trimmed;
  return trimmed.slice(firstLineEnd + 1, -3).trim();
}

function overrunError(overrun: 'time' | 'memory' | 'crash', what: string, field: string): Error {
  if (overrun === 'crash') return new UpstreamError(`${what} failed: try again`);
  const cost = overrun === 'time' ? 'took too long' : 'needed more memory than this server gives it';
  return new InvalidInputError(`${what} ${cost}: simplify ${field}`);
}

function refusal(outcome: Extract<CheckOutcome, { ok: false }>, what: string, field: string): Error {
  if ('overrun' in outcome) return overrunError(outcome.overrun, what, field);
  return new InvalidInputError(`${field} ${outcome.problem}`);
}

/**
 * prepareResponseSchema bounds schema (a 400 naming field and what to change) and compiles it in a schema
 * worker (a 400 naming ajv's reason when it is no valid schema), before anything is spent on the call.
 */
export async function prepareResponseSchema(
  schema: object,
  field: string,
  workers: SchemaWorkers = (shared ??= createSchemaWorkers()),
): Promise<ResponseSchema> {
  const text = checkJsonSchema(schema, field);
  const compiled = await workers.run({ kind: 'compile', schema: text });
  if (!compiled.ok) throw refusal(compiled, `Compiling ${field}`, field);
  return {
    async check(answer) {
      const json = stripFences(answer);
      const shape = answerShapeProblem(json);
      if (shape) throw new UpstreamError(`The model's answer was refused unchecked: ${shape}`);
      const outcome = await workers.run({ kind: 'validate', schema: text, answer: json });
      if (outcome.ok) return { ok: true, value: JSON.parse(json) as unknown };
      if ('overrun' in outcome || outcome.schemaInvalid) {
        throw refusal(outcome, `Checking the model's answer against ${field}`, field);
      }
      return { ok: false, problem: outcome.problem };
    },
  };
}
