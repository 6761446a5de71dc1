import { describe, expect, it } from 'vitest';
import { prepareResponseSchema, stripFences } from './response-schema';
import type { CheckOutcome, SchemaWorkers } from './schema-workers';

/** workersAnswering is a pool whose every check ends with outcome (and which records what it was asked). */
function workersAnswering(outcome: (kind: string) => CheckOutcome) {
  const asked: string[] = [];
  const workers: SchemaWorkers = {
    run: async (request) => {
      asked.push(request.kind === 'validate' ? `validate ${request.answer}` : 'compile');
      return outcome(request.kind);
    },
    close: async () => undefined,
  };
  return { workers, asked };
}

describe('prepareResponseSchema', () => {
  it('compiles before the call, then checks fenced answers in the workers and parses the valid ones', async () => {
    const { workers, asked } = workersAnswering(() => ({ ok: true }));
    const schema = await prepareResponseSchema({ type: 'object' }, 'response_json_schema', workers);
    expect(await schema.check('```json\n{"a": [1]}\n```')).toEqual({ ok: true, value: { a: [1] } });
    expect(asked).toEqual(['compile', 'validate {"a": [1]}']);
  });

  it('refuses a compile or a validation past its deadline or heap with a 400 saying to simplify the schema', async () => {
    const slow = workersAnswering(() => ({ ok: false, overrun: 'time' }));
    await expect(prepareResponseSchema({}, 'json_schema', slow.workers)).rejects.toMatchObject({
      name: 'InvalidInputError',
      message: 'Compiling json_schema took too long: simplify json_schema',
    });
    const heavy = workersAnswering((kind) =>
      kind === 'compile' ? { ok: true } : { ok: false, overrun: 'memory' },
    );
    const schema = await prepareResponseSchema({}, 'response_json_schema', heavy.workers);
    await expect(schema.check('[]')).rejects.toMatchObject({
      name: 'InvalidInputError',
      message:
        "Checking the model's answer against response_json_schema needed more memory than this server gives it: simplify response_json_schema",
    });
    const invalid = workersAnswering(() => ({
      ok: false,
      problem: 'is not a valid JSON schema: x',
      schemaInvalid: true,
    }));
    await expect(prepareResponseSchema({}, 'response_json_schema', invalid.workers)).rejects.toThrow(
      'response_json_schema is not a valid JSON schema: x',
    );
  });

  it('refuses an answer past its limits without asking the workers (a 502), and passes on what failed', async () => {
    const { workers, asked } = workersAnswering((kind) =>
      kind === 'compile' ? { ok: true } : { ok: false, problem: '/a must be integer', schemaInvalid: false },
    );
    const schema = await prepareResponseSchema({}, 'response_json_schema', workers);
    await expect(schema.check(`${'['.repeat(65)}${']'.repeat(65)}`)).rejects.toMatchObject({
      name: 'UpstreamError',
      message:
        "The model's answer was refused unchecked: the answer nests arrays and objects deeper than 64 levels",
    });
    expect(asked).toEqual(['compile']);
    expect(await schema.check('{"a": "x"}')).toEqual({ ok: false, problem: '/a must be integer' });
  });
});

describe('stripFences', () => {
  it('takes the JSON out of a fence, with or without its language, and leaves other text as it is', () => {
    expect(stripFences('```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(stripFences('  ```\n[1]```  ')).toBe('[1]');
    expect(stripFences('```python\nx\n```')).toBe('```python\nx\n```');
    expect(stripFences('{"a":1}')).toBe('{"a":1}');
  });

  it('reads a fence followed by a million newlines in linear time', () => {
    const hostile = `\`\`\`\n${'\n'.repeat(1_000_000)}x`;
    const started = performance.now();
    expect(stripFences(hostile)).toBe(hostile.trim());
    // The regex it replaces took 8.5 s at 100,000 newlines; this is a generous bound for a single scan.
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
