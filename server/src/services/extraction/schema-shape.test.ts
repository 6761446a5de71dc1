import { describe, expect, it } from 'vitest';
import { shapeOf } from './schema-shape';

const row = { type: 'object', properties: { name: { type: 'string' }, amount: { type: 'number' } } };

describe('shapeOf', () => {
  it('reads arrays of objects, objects wrapping one, and objects of scalars as rows', () => {
    expect(shapeOf({ type: 'array', items: row })).toMatchObject({ kind: 'rows', wrapIn: null });
    expect(shapeOf({ type: 'object', properties: { items: { type: 'array', items: row } } })).toMatchObject({
      kind: 'rows',
      wrapIn: 'items',
      row: { properties: row.properties },
    });
    expect(shapeOf(row)).toMatchObject({ kind: 'rows', wrapIn: null });
  });

  it('reads a single string field (or a string schema) as text', () => {
    expect(shapeOf({ type: 'object', properties: { content: { type: 'string' } } })).toEqual({
      kind: 'text',
      field: 'content',
    });
    expect(shapeOf({ type: 'string' })).toEqual({ kind: 'text', field: null });
  });

  it('leaves nested objects and empty schemas to the LLM', () => {
    expect(shapeOf({ type: 'object', properties: { invoice: row, total: { type: 'number' } } })).toEqual({
      kind: 'other',
    });
    expect(shapeOf({})).toEqual({ kind: 'other' });
    expect(shapeOf(null)).toEqual({ kind: 'other' });
  });
});
