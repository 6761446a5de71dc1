import { describe, expect, it } from 'vitest';
import { nameRule, propertyFor } from './field-types';

describe('nameRule: what a field name means', () => {
  it.each([
    ['due_date', { type: 'string', format: 'date' }],
    ['date', { type: 'string', format: 'date' }],
    ['completed_at', { type: 'string', format: 'date-time' }],
    ['is_done', { type: 'boolean' }],
    ['has_paid', { type: 'boolean' }],
    ['can_edit', { type: 'boolean' }],
    ['isActive', { type: 'boolean' }],
    ['view_count', { type: 'number' }],
    ['count', { type: 'number' }],
    ['amount', { type: 'number' }],
    ['price', { type: 'number' }],
    ['total', { type: 'number' }],
    ['quantity', { type: 'number' }],
    ['age', { type: 'number' }],
    ['location_lat', { type: 'number' }],
    ['email', { type: 'string', format: 'email' }],
    ['owner_email', { type: 'string', format: 'email' }],
    ['url', { type: 'string', format: 'uri' }],
    ['photo_url', { type: 'string', format: 'uri' }],
    ['member_ids', { type: 'array', items: { type: 'string' } }],
    ['tags', { type: 'array', items: { type: 'string' } }],
  ])('%s', (field, expected) => {
    expect(nameRule(field)).toEqual(expected);
  });

  it('says nothing of other names', () => {
    expect(nameRule('title')).toBeNull();
    expect(nameRule('island')).toBeNull();
    expect(nameRule('phone_number')).toBeNull();
  });
});

describe('propertyFor: literals first, then the name, then string', () => {
  it('takes a literal type over the name, and the name when no literal is seen', () => {
    expect(propertyFor('count', [{ type: 'string' }])).toEqual({ type: 'string' });
    expect(propertyFor('count', [{}])).toEqual({ type: 'number' });
    expect(propertyFor('title', [{}])).toEqual({ type: 'string' });
    expect(propertyFor('done', [{ type: 'boolean' }])).toEqual({ type: 'boolean' });
    expect(propertyFor('meta', [{ type: 'object' }])).toEqual({ type: 'object' });
  });

  it('adds the name format to strings, but not when the code writes an empty string', () => {
    expect(propertyFor('due_date', [{ type: 'string' }])).toEqual({ type: 'string', format: 'date' });
    expect(propertyFor('created_at', [{}])).toEqual({ type: 'string', format: 'date-time' });
    expect(propertyFor('due_date', [{ type: 'string', emptyString: true }, {}])).toEqual({ type: 'string' });
  });

  it('settles disagreeing literals on the name type when it is one of them, else string', () => {
    expect(propertyFor('price', [{ type: 'string' }, { type: 'number' }])).toEqual({ type: 'number' });
    expect(propertyFor('label', [{ type: 'boolean' }, { type: 'number' }])).toEqual({ type: 'string' });
  });

  it('gives arrays their item type when the literals agree, else the name items', () => {
    expect(propertyFor('scores', [{ type: 'array', items: 'number' }])).toEqual({
      type: 'array',
      items: { type: 'number' },
    });
    expect(propertyFor('member_ids', [{}])).toEqual({ type: 'array', items: { type: 'string' } });
    expect(
      propertyFor('mixed', [
        { type: 'array', items: 'number' },
        { type: 'array', items: 'string' },
      ]),
    ).toEqual({
      type: 'array',
    });
  });
});
