import { afterAll, describe, expect, it } from 'vitest';
import { createSchemaWorkers, MAX_WAITING_CHECKS } from './schema-workers';

// The deadline is short here: the exponential schema below runs for minutes, the others for microseconds.
// Its failed branches also pile up errors: the heap is large enough that the deadline comes first (on
// Node 24, 256 MB was reached within a second).
const workers = createSchemaWorkers({ timeoutMs: 500, workers: 1, heapMb: 1024 });
afterAll(() => workers.close());

/** chainedAnyOf is the probe's schema unbounded (the workers trust schema-bounds to refuse it first). */
function chainedAnyOf(levels: number): string {
  const $defs: Record<string, object> = { [`d${levels}`]: { type: 'object' } };
  for (let level = 0; level < levels; level += 1) {
    $defs[`d${level}`] = { anyOf: [{ $ref: `#/$defs/d${level + 1}` }, { $ref: `#/$defs/d${level + 1}` }] };
  }
  return JSON.stringify({ $ref: '#/$defs/d0', $defs });
}

describe('schema workers', () => {
  it('compile and validate in a worker thread', async () => {
    const schema = JSON.stringify({ type: 'object', required: ['n'] });
    expect(await workers.run({ kind: 'compile', schema })).toEqual({ ok: true });
    expect(await workers.run({ kind: 'validate', schema, answer: '{"n": 1}' })).toEqual({ ok: true });
    expect(await workers.run({ kind: 'validate', schema, answer: '{}' })).toEqual({
      ok: false,
      problem: "(root) must have required property 'n'",
      schemaInvalid: false,
    });
  });

  it('give up on a check past its deadline, and answer the next one from a fresh worker', async () => {
    const schema = chainedAnyOf(40);
    expect(await workers.run({ kind: 'compile', schema })).toEqual({ ok: true });
    const [slow, queued] = await Promise.all([
      workers.run({ kind: 'validate', schema, answer: '"text"' }),
      workers.run({ kind: 'validate', schema: '{"type": "string"}', answer: '"text"' }),
    ]);
    expect(slow).toEqual({ ok: false, overrun: 'time' });
    expect(queued).toEqual({ ok: true });
  });

  it('refuse a check past MAX_WAITING_CHECKS waiting with a 429, and answer the others', async () => {
    const schema = '{"type": "string"}';
    const checks = Array.from({ length: 1 + MAX_WAITING_CHECKS }, () =>
      workers.run({ kind: 'validate', schema, answer: '"text"' }),
    );
    expect(() => workers.run({ kind: 'validate', schema, answer: '"text"' })).toThrow('too many schemas');
    expect(await Promise.all(checks)).toEqual(checks.map(() => ({ ok: true })));
  });

  it('give up on a check past the heap cap', async () => {
    const small = createSchemaWorkers({ heapMb: 16, workers: 1 });
    try {
      // A 5 MB answer of 150,000 objects outgrows a 16 MB heap once parsed.
      const answer = JSON.stringify(
        Array.from({ length: 150_000 }, (_, i) => ({ text: `item number ${i}` })),
      );
      const outcome = await small.run({ kind: 'validate', schema: '{}', answer });
      expect(outcome).toEqual({ ok: false, overrun: 'memory' });
    } finally {
      await small.close();
    }
  });
});
