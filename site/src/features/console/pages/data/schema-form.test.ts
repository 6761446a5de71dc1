import { describe, expect, it } from 'vitest';
import { formFieldsOf, formValuesOf, recordFromForm } from './schema-form';

// The fixture project's Todo (e2e/fixtures/project/base44/entities/todo.jsonc), plus the kinds it lacks.
const TODO = {
  type: 'object',
  properties: {
    title: { type: 'string', maxLength: 200 },
    description: { type: ['string', 'null'] },
    active: { type: 'boolean', default: true },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
    score: { type: 'number' },
    status: { type: 'string', enum: ['open', 'doing', 'done'] },
    contact: { type: 'string', format: 'email' },
    due: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    tags: { type: 'array', items: { type: 'string', minLength: 1 } },
    lines: { type: 'array', items: { type: 'object' } },
    meta: {
      type: 'object',
      properties: {
        score: { type: 'number' },
        deep: { type: 'object', properties: { x: { type: 'string' } } },
      },
      required: ['score'],
    },
    anything: {},
  },
  required: ['title'],
};

describe('formFieldsOf', () => {
  it('gives each property an input of its kind, nested objects and object arrays as JSON', () => {
    const fields = formFieldsOf(TODO);
    expect(fields.map((field) => [field.path, field.kind])).toEqual([
      ['title', 'text'],
      ['description', 'text'],
      ['active', 'boolean'],
      ['priority', 'integer'],
      ['score', 'number'],
      ['status', 'enum'],
      ['contact', 'text'],
      ['due', 'date'],
      ['at', 'date-time'],
      ['tags', 'string-list'],
      ['lines', 'json'],
      ['meta', 'object'],
      ['anything', 'json'],
    ]);
    expect(fields[0]?.required).toBe(true);
    expect(fields[1]?.required).toBe(false);
    expect(fields.find((f) => f.path === 'status')?.options).toEqual(['open', 'doing', 'done']);
    expect(fields.find((f) => f.path === 'contact')?.format).toBe('email');
    const meta = fields.find((f) => f.path === 'meta')?.fields ?? [];
    expect(meta.map((f) => [f.path, f.kind, f.required])).toEqual([
      ['meta.score', 'number', true],
      ['meta.deep', 'json', false],
    ]);
  });
});

describe('formValuesOf and recordFromForm', () => {
  const fields = formFieldsOf(TODO);
  it('starts a new record from the defaults and sends only what was filled in', () => {
    const values = formValuesOf(fields, null, TODO);
    expect(values.active).toBe(true);
    expect(values.title).toBe('');
    const filled = {
      ...values,
      title: 'Buy milk',
      priority: '3',
      tags: 'a\n\n b ',
      'meta.score': '1.5',
      lines: '[{"sku":"x"}]',
    };
    expect(recordFromForm(fields, filled, null)).toEqual({
      data: {
        title: 'Buy milk',
        active: true,
        priority: 3,
        tags: ['a', 'b'],
        lines: [{ sku: 'x' }],
        meta: { score: 1.5 },
      },
      problems: [],
    });
  });
  it('edits a record: its values shown, an emptied field cleared with null', () => {
    const record = {
      id: 'r1',
      title: 'T',
      description: 'd',
      priority: 2,
      tags: ['x', 'y'],
      meta: { score: 1, deep: { x: 'y' } },
    };
    const values = formValuesOf(fields, record, TODO);
    expect(values.priority).toBe('2');
    expect(values.tags).toBe('x\ny');
    expect(values['meta.deep']).toBe('{\n  "x": "y"\n}');
    const { data } = recordFromForm(fields, { ...values, description: '' }, record);
    expect(data.description).toBeNull();
    expect(data.meta).toEqual({ score: 1, deep: { x: 'y' } });
  });
  it('names the inputs it cannot read, and sends nothing then', () => {
    const values = {
      ...formValuesOf(fields, null, TODO),
      title: 'T',
      priority: '2.5',
      score: 'abc',
      lines: '[',
    };
    expect(recordFromForm(fields, values, null).problems).toEqual([
      { path: 'priority', message: 'Enter a whole number' },
      { path: 'score', message: 'Enter a number' },
      { path: 'lines', message: 'Enter valid JSON' },
    ]);
  });
});
