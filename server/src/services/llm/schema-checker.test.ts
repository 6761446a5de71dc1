import { describe, expect, it } from 'vitest';
import { createSchemaChecker } from './schema-checker';

const checker = createSchemaChecker();
const validate = (schema: object, answer: unknown) =>
  checker.answer({ id: 1, kind: 'validate', schema: JSON.stringify(schema), answer: JSON.stringify(answer) });

describe('schema checker', () => {
  it('validates and names what failed', () => {
    const schema = {
      type: 'object',
      properties: { age: { type: 'integer' }, code: { type: 'string', pattern: '^[A-Z]{2}$' } },
      required: ['age'],
    };
    expect(validate(schema, { age: 3, code: 'AB' })).toEqual({ id: 1, ok: true });
    expect(validate(schema, { age: 'x' })).toMatchObject({ ok: false, problem: '/age must be integer' });
    expect(checker.answer({ id: 2, kind: 'validate', schema: '{}', answer: '{"a": ' })).toMatchObject({
      ok: false,
      problem: 'the answer is not JSON',
      schemaInvalid: false,
    });
  });

  it('refuses an invalid schema, and drops $id and a $schema ajv does not hold', () => {
    expect(checker.answer({ id: 1, kind: 'compile', schema: '{"type": "nonsense"}' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^is not a valid JSON schema/),
      schemaInvalid: true,
    });
    const declared = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/answer',
      type: 'string',
    };
    expect(validate(declared, 'ok')).toMatchObject({ ok: true });
    expect(validate(declared, 3)).toMatchObject({ ok: false });
  });

  it('stops at the first failure (allErrors off)', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } };
    expect(validate(schema, { a: 'x', b: 'y' })).toEqual({
      id: 1,
      ok: false,
      problem: '/a must be integer',
      schemaInvalid: false,
    });
  });

  it('keeps non-recursive $defs used twice, and the patterns real apps send', () => {
    const schema = {
      $defs: { zip: { type: 'string', pattern: '^\\d{5}$' } },
      properties: { home: { $ref: '#/$defs/zip' }, work: { $ref: '#/$defs/zip' } },
    };
    expect(validate(schema, { home: '12345', work: '54321' })).toMatchObject({ ok: true });
    expect(validate(schema, { home: '12345', work: 'x' })).toMatchObject({ ok: false });
  });

  it('runs patterns in linear time (a backtracking pattern matches on RE2)', () => {
    expect(validate({ type: 'string', pattern: '^(a+)+$' }, `${'a'.repeat(5000)}!`)).toMatchObject({
      ok: false,
    });
    expect(validate({ type: 'string', pattern: '^(a+)+$' }, 'aaa')).toMatchObject({ ok: true });
  });
});
