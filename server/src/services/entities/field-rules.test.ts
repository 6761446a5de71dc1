import { describe, expect, it } from 'vitest';
import type { PropertySchema } from '../../schemas/entity-project';
import type { Caller } from '../../rules/caller';
import { readScope, readView, stripHidden } from '../../rules/read-scope';
import { keepHidden } from './field-rules';
import { applyUpdate, parseUpdate } from './update-operators';

const alice: Caller = {
  kind: 'user',
  user: { id: 'u1', email: 'alice@x.test', role: 'user', full_name: 'Alice', custom: {} },
};
const service: Caller = { kind: 'service' };
const mine = { read: { created_by: '{{user.email}}' } };

const PROPERTIES: Record<string, PropertySchema> = {
  title: { type: 'string' },
  meta: {
    type: 'object',
    properties: {
      owner: { type: 'string', rls: mine },
      deep: { type: 'object', properties: { pin: { type: 'string', rls: mine } } },
      open: { type: 'string' },
    },
  },
  lines: {
    type: 'array',
    items: { type: 'object', properties: { cost: { type: 'number', rls: mine }, sku: { type: 'string' } } },
  },
  secret: { type: 'object', rls: { read: false }, properties: { inner: { type: 'string' } } },
};

const RECORD = {
  id: 'r1',
  created_by: 'bob@x.test',
  title: 'T',
  meta: { owner: 'bob', deep: { pin: '1234', other: 'x' }, open: 'yes' },
  lines: [{ cost: 3, sku: 'a' }, { sku: 'b' }, 'odd'],
  secret: { inner: 'hidden' },
};

describe('readScope', () => {
  it('collects read rules at any depth, `[]` standing for array elements', () => {
    const visibility = readScope(PROPERTIES, alice);
    expect([...visibility.keys()].sort()).toEqual(['lines.[].cost', 'meta.deep.pin', 'meta.owner', 'secret']);
    expect(visibility.get('meta.owner')).toEqual({ created_by: { $eq: 'alice@x.test' } });
  });

  it('is empty for the service role', () => {
    expect(readScope(PROPERTIES, service).size).toBe(0);
  });
});

describe('stripHidden', () => {
  it('removes each nested key whose rule fails, leaving its siblings and the stored record alone', () => {
    const before = structuredClone(RECORD);
    expect(stripHidden(RECORD, readScope(PROPERTIES, alice))).toEqual({
      id: 'r1',
      created_by: 'bob@x.test',
      title: 'T',
      meta: { deep: { other: 'x' }, open: 'yes' },
      lines: [{ sku: 'a' }, { sku: 'b' }, 'odd'],
    });
    expect(RECORD).toEqual(before);
  });

  it('keeps nested keys whose rule holds for the record', () => {
    const own = { ...RECORD, created_by: 'alice@x.test' };
    const { secret: _secret, ...rest } = own;
    expect(stripHidden(own, readScope(PROPERTIES, alice))).toEqual(rest);
  });

  it('leaves a record without the nested parent as it is', () => {
    const bare = { id: 'r2', created_by: 'bob@x.test', meta: 'not an object', lines: null };
    expect(stripHidden(bare, readScope(PROPERTIES, alice))).toEqual(bare);
  });
});

describe('readView', () => {
  const view = readView(RECORD, readScope(PROPERTIES, alice));

  it('reads a hidden path (or one under it) as missing', () => {
    expect(view(['meta', 'owner'], 'bob')).toBeUndefined();
    expect(view(['secret', 'inner'], 'hidden')).toBeUndefined();
    expect(view(['lines', '0', 'cost'], 3)).toBeUndefined();
  });

  it('reads a parent without its hidden keys, and other paths as they are', () => {
    expect(view(['meta'], RECORD.meta)).toEqual({ deep: { other: 'x' }, open: 'yes' });
    expect(view(['lines'], RECORD.lines)).toEqual([{ sku: 'a' }, { sku: 'b' }, 'odd']);
    expect(view(['title'], 'T')).toBe('T');
  });

  it('lets update operators neither move, overwrite nor probe a hidden value: 403 naming the path', () => {
    const apply = (update: unknown) => applyUpdate(RECORD, parseUpdate(update), new Date(), view);
    expect(() => apply({ $rename: { 'meta.owner': 'title' } })).toThrow(
      /\$rename meta\.owner: .*hidden from you/,
    );
    expect(() => apply({ $inc: { 'meta.deep.pin': 1 } })).toThrow(/\$inc meta\.deep\.pin/);
    // Refused whether or not anything is stored there, so the answer tells nothing about hidden data.
    expect(() => applyUpdate({}, parseUpdate({ $set: { 'meta.owner': 'x' } }), new Date(), view)).toThrow(
      /meta\.owner: the field is hidden/,
    );
    expect(applyUpdate(RECORD, parseUpdate({ $rename: { 'meta.owner': 'title' } }), new Date()).title).toBe(
      'bob',
    );
  });
});

describe('writes never lose hidden values (keepHidden and the update operators)', () => {
  const view = readView(RECORD, readScope(PROPERTIES, alice));
  const data = (({ id: _id, created_by: _by, ...rest }) => rest)(RECORD);
  const run = (update: unknown) => applyUpdate(data, parseUpdate(update), new Date(), view);

  it('keeps hidden keys of an object written back without them, and takes the visible changes', () => {
    const written = { deep: { other: 'y' }, open: 'no' };
    expect(keepHidden(RECORD.meta, written, ['meta'], view)).toEqual({
      owner: 'bob',
      deep: { pin: '1234', other: 'y' },
      open: 'no',
    });
    expect(run({ $set: { meta: written } }).meta).toEqual({
      owner: 'bob',
      deep: { pin: '1234', other: 'y' },
      open: 'no',
    });
  });

  it('keeps the hidden keys of a visible child the written object omits', () => {
    expect(keepHidden(RECORD.meta, { open: 'x' }, ['meta'], view)).toEqual({
      open: 'x',
      owner: 'bob',
      deep: { pin: '1234' },
    });
  });

  it('keeps an array written back as read, and refuses one that would drop hidden element keys', () => {
    const read = view(['lines'], RECORD.lines);
    expect(keepHidden(RECORD.lines, read, ['lines'], view)).toEqual(RECORD.lines);
    expect(keepHidden(RECORD.lines, [...(read as unknown[]), { sku: 'c' }], ['lines'], view)).toEqual([
      ...RECORD.lines,
      { sku: 'c' },
    ]);
    expect(() => keepHidden(RECORD.lines, [{ sku: 'z' }], ['lines'], view)).toThrow(/lines.*hidden/);
    expect(() => run({ $set: { lines: [] } })).toThrow(/lines.*hidden/);
  });

  it('applies $push, $addToSet and $pull to the stored array, matching elements as the caller sees them', () => {
    expect(run({ $push: { lines: { sku: 'c' } } }).lines).toEqual([...RECORD.lines, { sku: 'c' }]);
    expect(run({ $addToSet: { lines: { $each: [{ sku: 'a' }, { sku: 'd' }] } } }).lines).toEqual([
      ...RECORD.lines,
      { sku: 'd' },
    ]);
    // Comparing with the hidden value would be an oracle: {sku, cost} is not what the caller sees; and
    // an element naming the hidden key is a write of a hidden path.
    expect(() => run({ $addToSet: { lines: { sku: 'a', cost: 3 } } })).toThrow(/lines\.3\.cost: the field/);
    expect(() => run({ $push: { lines: { $each: [{ sku: 'x', cost: 1 }] } } })).toThrow(/lines\.3\.cost/);
    expect(run({ $pull: { lines: { sku: 'a', cost: 3 } } }).lines).toEqual(RECORD.lines);
    expect(run({ $pull: { lines: { sku: 'b' } } }).lines).toEqual([{ cost: 3, sku: 'a' }, 'odd']);
  });

  it('refuses $pull of an element holding hidden keys', () => {
    expect(() => run({ $pull: { lines: { sku: 'a' } } })).toThrow(/\$pull elements of lines/);
    expect(() => run({ $pull: { lines: { $in: ['odd', { sku: 'a' }] } } })).toThrow(/lines.*hidden/);
  });

  it('refuses operators that would remove or replace a value holding hidden keys', () => {
    for (const update of [
      { $unset: { meta: '' } },
      { $unset: { 'meta.deep': '' } },
      { $unset: { lines: '' } },
      { $currentDate: { meta: true } },
      { $inc: { 'meta.deep': 1 } },
      { $max: { meta: 'z' } },
      { $rename: { title: 'meta' } },
      { $rename: { title: 'lines' } },
    ]) {
      expect(() => run(update), JSON.stringify(update)).toThrow(/hidden from you/);
    }
    expect(() => run({ $unset: { 'meta.owner': '' } })).toThrow(/\$unset meta\.owner: the field/);
    expect(() => run({ $rename: { 'meta.open': 'meta.owner' } })).toThrow(/\$rename meta\.owner/);
    expect(() => run({ $set: { meta: null } })).toThrow(/replace meta/);
    expect(() => run({ $set: { meta: { open: 'x', owner: 'me' } } })).toThrow(/meta\.owner: the field/);
    expect(run({ $unset: { 'meta.open': '' } }).meta).toEqual({
      owner: 'bob',
      deep: { pin: '1234', other: 'x' },
    });
  });

  it('refuses $rename of a value holding hidden keys', () => {
    expect(() => run({ $rename: { lines: 'items' } })).toThrow(/\$rename lines/);
    expect(run({ $rename: { title: 'name' } })).toMatchObject({ name: 'T' });
  });

  it('lets the service role and the creator (no hidden fields) replace and remove anything', () => {
    for (const all of [
      readView(RECORD, readScope(PROPERTIES, service)),
      readView({ ...RECORD, created_by: 'alice@x.test' }, readScope(PROPERTIES, alice)),
    ]) {
      const apply = (update: unknown) => applyUpdate(data, parseUpdate(update), new Date(), all);
      expect(apply({ $set: { lines: [] } }).lines).toEqual([]);
      expect(apply({ $unset: { meta: '' } }).meta).toBeUndefined();
      expect(apply({ $pull: { lines: { sku: 'a', cost: 3 } } }).lines).toEqual([{ sku: 'b' }, 'odd']);
      expect(apply({ $rename: { 'meta.open': 'meta.owner' } }).meta).toEqual({
        owner: 'yes',
        deep: { pin: '1234', other: 'x' },
      });
      expect(keepHidden(RECORD.meta, null, ['meta'], all)).toBeNull();
    }
  });
});
