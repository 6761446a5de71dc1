import { describe, expect, it } from 'vitest';
import { checkJsonSchema, SCHEMA_LIMITS } from './schema-bounds';

const check = (schema: object) => checkJsonSchema(schema, 'response_json_schema');

/** chainedAnyOf is the probe's schema: each definition is anyOf the next one twice, `levels` deep. */
function chainedAnyOf(levels: number): object {
  const $defs: Record<string, object> = { [`d${levels}`]: { type: 'object', required: ['x'] } };
  for (let level = 0; level < levels; level += 1) {
    $defs[`d${level}`] = { anyOf: [{ $ref: `#/$defs/d${level + 1}` }, { $ref: `#/$defs/d${level + 1}` }] };
  }
  return { $ref: '#/$defs/d0', $defs };
}

describe('checkJsonSchema', () => {
  it('keeps what real apps send: a few KB, nested objects and arrays, $defs used more than once', () => {
    const address = {
      type: 'object',
      properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^\\d{5}$' } },
    };
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/order',
      type: 'object',
      $defs: { address },
      properties: {
        billing: { $ref: '#/$defs/address' },
        shipping: { $ref: '#/$defs/address' },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
            required: ['sku'],
          },
        },
        status: { anyOf: [{ const: 'open' }, { const: 'closed' }] },
      },
      required: ['lines'],
    };
    expect(check(schema)).toBe(JSON.stringify(schema));
  });

  it('refuses the chained anyOf of $refs (1.7 KB, 2^24 subschemas) by its expanded size, whatever its depth', () => {
    for (const levels of [14, 20, 24, 60]) {
      const schema = chainedAnyOf(levels);
      if (levels <= 24) expect(JSON.stringify(schema).length).toBeLessThan(2_000);
      expect(() => check(schema), `${levels} levels`).toThrow(
        /expands to more than 10000 subschemas|deeper than 32 levels/,
      );
    }
    expect(() => check(chainedAnyOf(8))).not.toThrow();
  });

  it('refuses recursion through $ref, directly or through other definitions', () => {
    const tree = {
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
      $ref: '#/$defs/node',
    };
    expect(() => check(tree)).toThrow(/response_json_schema is recursive/);
    expect(() => check({ properties: { self: { $ref: '#' } } })).toThrow(/recursive/);
    const loop = {
      $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { not: { $ref: '#/$defs/a' } } },
      $ref: '#/$defs/a',
    };
    expect(() => check(loop)).toThrow(/recursive/);
    // An unused recursive definition is never expanded: nothing validates against it.
    expect(() => check({ type: 'string', $defs: { a: { $ref: '#/$defs/a' } } })).not.toThrow();
  });

  it('bounds the depth through $refs, and refers only within the schema by JSON pointer', () => {
    const $defs: Record<string, object> = { d40: { type: 'string' } };
    for (let level = 0; level < 40; level += 1)
      $defs[`d${level}`] = { items: { $ref: `#/$defs/d${level + 1}` } };
    expect(() => check({ $ref: '#/$defs/d0', $defs })).toThrow(
      /deeper than 32 levels \(counting through \$ref\)/,
    );
    expect(() => check({ $ref: 'http://example.com/s.json' })).toThrow(/\$ref within itself/);
    expect(() => check({ $ref: '#anchor' })).toThrow(/JSON pointer/);
    expect(() => check({ $ref: '#/$defs/missing' })).toThrow(/\$ref to nothing/);
    expect(() => check({ $ref: '#/$defs/%E0%A4%A', $defs: {} })).toThrow(/not a valid JSON pointer/);
    expect(() => check({ $ref: '#/$defs/a~1b', $defs: { 'a/b': { type: 'string' } } })).not.toThrow();
    expect(() => check({ properties: { a: { $id: 'other', $ref: '#/x' } }, x: {} })).toThrow(
      /\$id only at its top level/,
    );
    // Unused definitions too: ajv would register their $id for every schema compiled after.
    expect(() => check({ $defs: { a: { $id: 'https://example.com/a' } } })).toThrow(
      /\$id only at its top level/,
    );
    expect(() => check({ properties: { $id: { type: 'string' } } })).not.toThrow();
  });

  it('bounds size and depth of the JSON', () => {
    let deep: object = { type: 'string' };
    for (let level = 0; level < 20; level += 1) deep = { type: 'object', properties: { a: deep } };
    expect(() => check(deep)).toThrow(/nested deeper/);
    expect(() => check({ description: 'x'.repeat(40_000) })).toThrow(/larger than/);
    const wide = { properties: Object.fromEntries(Array.from({ length: 2_500 }, (_, i) => [`p${i}`, {}])) };
    expect(() => check(wide)).toThrow(`more than ${SCHEMA_LIMITS.maxNodes} parts`);
    expect(() => checkJsonSchema(deep, 'json_schema')).toThrow(/^json_schema /);
  });
});

describe('schema patterns', () => {
  const withPatterns = (...patterns: string[]) => ({
    type: 'object',
    properties: Object.fromEntries(patterns.map((pattern, i) => [`f${i}`, { type: 'string', pattern }])),
  });

  it('keeps the patterns real apps send', () => {
    expect(() =>
      check(withPatterns('^\\d{5}$', '^[A-Z]{2}\\d{6,10}$', '^\\S+@\\S+\\.\\S{2,}$')),
    ).not.toThrow();
  });

  it('refuses patterns whose repeats expand far (nested or chained counts)', () => {
    expect(() => check(withPatterns('^(.{0,1000}){30}x$'))).toThrow(/multiply past 1000/);
    expect(() => check(withPatterns('^(a{0,40}){40}$'))).toThrow(/multiply past 1000/);
    expect(() => check({ type: 'object', patternProperties: { '^x{2000}$': { type: 'string' } } })).toThrow(
      /multiply past 1000/,
    );
  });

  it('refuses too many or too long patterns', () => {
    expect(() => check(withPatterns(...Array.from({ length: 21 }, () => '^a$')))).toThrow(
      /more than 20 patterns/,
    );
    expect(() => check(withPatterns('a'.repeat(501)))).toThrow(/longer than 500/);
  });
});
