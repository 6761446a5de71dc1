import { describe, expect, it } from 'vitest';
import { jsonTextOf, withJsonText } from './json-text';

describe('json text', () => {
  it('hands out the text a value carries, and serializes a value that carries none', () => {
    const page = withJsonText([{ id: 'a' }], '[{"id":"a"}]');
    expect(jsonTextOf(page)).toBe('[{"id":"a"}]');
    expect(jsonTextOf({ id: 'b' })).toBe('{"id":"b"}');
  });

  it('never passes the text on to a copy, whose JSON may differ', () => {
    const record = withJsonText({ id: 'a', title: 'old' }, '{"id":"a","title":"old"}');
    expect(jsonTextOf({ ...record, title: 'new' })).toBe('{"id":"a","title":"new"}');
    expect(jsonTextOf(Object.assign({}, record, { title: 'new' }))).toBe('{"id":"a","title":"new"}');
    expect(Object.keys(record)).toEqual(['id', 'title']);
    expect(JSON.stringify(record)).toBe('{"id":"a","title":"old"}');
  });
});
