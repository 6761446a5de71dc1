import { describe, expect, it } from 'vitest';
import { exportedEntityHandles, extractSightings } from './entity-extraction';
import type { Evidence } from './field-types';
import { parseSource } from './source-ast';

/** fieldsOf extracts code (as fileName) and returns each entity's fields with their evidence, in order. */
function fieldsOf(code: string, fileName = 'a.jsx', imported = new Map<string, string>()) {
  const found: Record<string, Record<string, Evidence>> = {};
  for (const sighting of extractSightings(parseSource(fileName, code), imported)) {
    const fields = (found[sighting.entity] ??= {});
    for (const { field, evidence } of sighting.fields) fields[field] = evidence;
  }
  return found;
}

describe('extractSightings: how code names an entity', () => {
  it('reads base44.entities.X, entities["X"], entities[\'X\'] and any client name, service role included', () => {
    const found = fieldsOf(`
      base44.entities.Todo.create({ title: 'a' });
      client.entities['Note'].create({ text: 'b' });
      sdk.entities["Tag"].list();
      base44.asServiceRole.entities.Audit.create({ action: 'x' });
      const db = base44.asServiceRole.entities; db.Job.filter({ state: 'queued' });
    `);
    expect(Object.keys(found).sort()).toEqual(['Audit', 'Job', 'Note', 'Tag', 'Todo']);
    expect(found.Job).toEqual({ state: { type: 'string' } });
  });

  it('reads destructured handles, renamed ones and `const { entities } = base44`', () => {
    const found = fieldsOf(`
      const { Todo, Note: N } = base44.entities;
      const { entities } = base44;
      Todo.create({ done: false });
      N.update(id, { text: 'x' });
      entities.Tag.create({ label: 'y' });
    `);
    expect(found).toEqual({
      Todo: { done: { type: 'boolean' } },
      Note: { text: { type: 'string' } },
      Tag: { label: { type: 'string' } },
    });
  });

  it('reads handles imported from an `entities` module that re-exports them', () => {
    const module = parseSource(
      'entities.js',
      'export const Trip = base44.entities.Trip; export const Query = base44.entities.Query;',
    );
    const handles = exportedEntityHandles(module);
    expect([...handles]).toEqual([
      ['Trip', 'Trip'],
      ['Query', 'Query'],
    ]);
    const found = fieldsOf(
      `import { Trip } from '@/api/entities'; Trip.create({ name: 'x' });`,
      'b.jsx',
      handles,
    );
    expect(found).toEqual({ Trip: { name: { type: 'string' } } });
    // A handle only given a name (the template's `Query`) is not an entity use.
    expect(extractSightings(module, handles)).toEqual([]);
  });

  it("takes lower-case members of an `entities` value for the app's own data, not entities", () => {
    expect(
      fieldsOf(
        `props.entities.map((e) => e.id); data.entities.length; const { entities } = props; entities.filter(Boolean);`,
      ),
    ).toEqual({});
  });

  it('reads TypeScript and TSX (casts, non-null, generics)', () => {
    const ts = fieldsOf(`const rows = await base44.entities.Order.filter({ total: 5 } as Query)!;`, 'f.ts');
    expect(ts).toEqual({ Order: { total: { type: 'number' } } });
    const tsx = fieldsOf(
      `const A = () => <div onClick={() => base44.entities.Order.create({ paid: true })} />;`,
      'f.tsx',
    );
    expect(tsx).toEqual({ Order: { paid: { type: 'boolean' } } });
  });
});

describe('extractSightings: which fields a call names', () => {
  it('create and bulkCreate write an object literal (and the literals in an array)', () => {
    const found = fieldsOf(`
      E.entities.Item.create({ name: 'a', qty: 2, tags: ['x'], meta: { a: 1 }, note });
      E.entities.Item.bulkCreate([{ sku: 'a' }, { price: 3 }]);
    `);
    expect(found.Item).toEqual({
      name: { type: 'string' },
      qty: { type: 'number' },
      tags: { type: 'array', items: 'string' },
      meta: { type: 'object' },
      note: {},
      sku: { type: 'string' },
      price: { type: 'number' },
    });
  });

  it('update(id, {...}), bulkUpdate and updateMany ($set, $inc, $push) write fields', () => {
    const found = fieldsOf(`
      x.entities.Task.update(task.id, { status: 'done' });
      x.entities.Task.bulkUpdate([{ id: 'a', rank: 1 }]);
      x.entities.Task.updateMany({ owner: 'me' }, { $set: { archived: true }, $inc: { views: 1 }, $push: { labels: 'x' } });
    `);
    expect(found.Task).toEqual({
      status: { type: 'string' },
      id: { type: 'string' },
      rank: { type: 'number' },
      owner: { type: 'string' },
      archived: { type: 'boolean' },
      views: { type: 'number' },
      labels: { type: 'array', items: 'string' },
    });
  });

  it('filter reads query keys through $or and operators, and the sort; list reads its sort', () => {
    const found = fieldsOf(`
      x.entities.Log.filter({ level: { $gte: 3 }, $or: [{ kind: 'a' }, { kind: { $in: ['b', 'c'] } }], 'meta.tag': 'x' }, '-logged_on');
      x.entities.Log.list('name', 10);
      x.entities.Log.list({ sort: '+position' });
      x.entities.Log.deleteMany({ stale: true });
    `);
    expect(found.Log).toEqual({
      level: { type: 'number' },
      kind: { type: 'string' },
      meta: { type: 'object' },
      logged_on: {},
      name: {},
      position: {},
      stale: { type: 'boolean' },
    });
  });

  it('reads a plain object bound to a name, spreads of it, and form state given to create/update', () => {
    const found = fieldsOf(`
      const [form, setForm] = useState({ title: '', due_date: '' });
      const [other] = React.useState({ priority: 1 });
      setForm((f) => ({ ...f, notes: 'n' }));
      const extra = { source: 'web' };
      base44.entities.Todo.create({ ...form, ...extra, done: false });
      base44.entities.Todo.update(id, other);
    `);
    expect(found.Todo).toEqual({
      title: { type: 'string', emptyString: true },
      due_date: { type: 'string', emptyString: true },
      notes: { type: 'string' },
      source: { type: 'string' },
      done: { type: 'boolean' },
      priority: { type: 'number' },
    });
  });

  it('reads React Query mutations: m.mutate(value) passes value to mutationFn', () => {
    const found = fieldsOf(`
      const add = useMutation({ mutationFn: (data) => base44.entities.Expense.create({ ...data, trip_id: id }) });
      const edit = useMutation({ mutationFn: ({ id, data }) => base44.entities.Expense.update(id, data) });
      add.mutate({ amount: 5 });
      edit.mutateAsync({ id: 'a', data: { paid: true } });
    `);
    expect(found.Expense).toEqual({ amount: { type: 'number' }, trip_id: {}, paid: { type: 'boolean' } });
  });

  it('get, delete and subscribe name the entity without fields', () => {
    expect(
      fieldsOf(`x.entities.Card.get(id); x.entities.Card.delete(id); x.entities.Card.subscribe(cb);`),
    ).toEqual({
      Card: {},
    });
  });
});
