// The record editor's form, from the entity's JSON schema: each property becomes a field of a kind an input
// can hold; what no input holds well (nested objects, arrays of objects) is edited as JSON text. Values
// travel as form text (checkboxes as booleans) and become a record body again on save.

/** FieldKind is how one property is edited. */
export type FieldKind =
  | 'text'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'date'
  | 'date-time'
  | 'string-list'
  | 'object'
  | 'json';

/** FormField is one input of the form: its path in the record (`meta.score`), kind and constraints. */
export interface FormField {
  path: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  /** format is a string field's format (email, uri…), for the input's type. */
  format?: string;
  /** options are an enum's choices. */
  options?: string[];
  /** fields are an object's own fields (one level; deeper ones are JSON). */
  fields?: FormField[];
  description?: string;
}

/** FormValues are the form's inputs by path: text, or a checkbox's state. */
export type FormValues = Record<string, string | boolean>;

type Schema = Record<string, unknown>;
const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  return types.filter((t): t is string => typeof t === 'string' && t !== 'null');
}

function kindOf(schema: Schema, depth: number): FieldKind {
  const [type, ...others] = typesOf(schema);
  if (others.length > 0 || type === undefined) return 'json';
  if (Array.isArray(schema.enum) && schema.enum.every((option) => typeof option === 'string')) return 'enum';
  if (type === 'string') {
    if (schema.format === 'date') return 'date';
    if (schema.format === 'date-time') return 'date-time';
    return 'text';
  }
  if (type === 'number' || type === 'integer' || type === 'boolean') return type;
  if (type === 'array') {
    const items = isObject(schema.items) ? schema.items : {};
    return typesOf(items).join() === 'string' && items.enum === undefined ? 'string-list' : 'json';
  }
  if (type === 'object' && depth === 0 && isObject(schema.properties)) return 'object';
  return 'json';
}

function fieldsAt(schema: Schema, prefix: string, depth: number): FormField[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.entries(properties).map(([name, raw]) => {
    const property = isObject(raw) ? raw : {};
    const path = prefix ? `${prefix}.${name}` : name;
    const field: FormField = {
      path,
      label: name,
      kind: kindOf(property, depth),
      required: required.includes(name),
    };
    if (typeof property.format === 'string') field.format = property.format;
    if (typeof property.description === 'string') field.description = property.description;
    if (field.kind === 'enum') field.options = (property.enum as string[]).slice();
    if (field.kind === 'object') field.fields = fieldsAt(property, path, depth + 1);
    return field;
  });
}

/** formFieldsOf maps an entity's JSON schema to the form's fields, in the schema's order. */
export function formFieldsOf(schema: Record<string, unknown>): FormField[] {
  return fieldsAt(schema, '', 0);
}

/** leafFieldsOf lists the fields that hold an input (an object's own fields instead of the object). */
export function leafFieldsOf(fields: FormField[]): FormField[] {
  return fields.flatMap((field) => (field.fields ? leafFieldsOf(field.fields) : [field]));
}

function valueAt(record: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), record);
}

const pad = (n: number) => String(n).padStart(2, '0');
/** localDateTime is an ISO instant as a datetime-local input's value (the browser's time zone). */
function localDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function textOf(field: FormField, value: unknown): string | boolean {
  if (field.kind === 'boolean') return value === true;
  if (value === undefined || value === null) return '';
  if (field.kind === 'string-list' && Array.isArray(value)) return value.map(String).join('\n');
  if (field.kind === 'json') return JSON.stringify(value, null, 2);
  if (field.kind === 'date-time' && typeof value === 'string') return localDateTime(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * formValuesOf is the form's starting values: the record's (edit), else each field's schema default
 * (create, so an untouched checkbox keeps its default).
 */
export function formValuesOf(
  fields: FormField[],
  record: Record<string, unknown> | null,
  schema: Record<string, unknown>,
): FormValues {
  const values: FormValues = {};
  const defaults: Record<string, unknown> = {};
  for (const field of leafFieldsOf(fields)) {
    const property = valueAt(
      isObject(schema.properties) ? schema.properties : {},
      field.path.split('.').join('.properties.'),
    );
    if (isObject(property) && property.default !== undefined) defaults[field.path] = property.default;
    values[field.path] = textOf(field, record ? valueAt(record, field.path) : defaults[field.path]);
  }
  return values;
}

/** FieldProblem is a problem with one field's input, found before sending or named by the server. */
export interface FieldProblem {
  path: string;
  message: string;
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

function parseInput(field: FormField, input: string | boolean): Parsed {
  if (typeof input === 'boolean') return { ok: true, value: input };
  const text = field.kind === 'text' ? input : input.trim();
  switch (field.kind) {
    case 'number':
    case 'integer': {
      const number = Number(text);
      if (!Number.isFinite(number)) return { ok: false, message: 'Enter a number' };
      if (field.kind === 'integer' && !Number.isInteger(number))
        return { ok: false, message: 'Enter a whole number' };
      return { ok: true, value: number };
    }
    case 'date-time': {
      const date = new Date(text);
      return Number.isNaN(date.getTime())
        ? { ok: false, message: 'Enter a date and time' }
        : { ok: true, value: date.toISOString() };
    }
    case 'string-list':
      return {
        ok: true,
        value: text
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      };
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch {
        return { ok: false, message: 'Enter valid JSON' };
      }
    default:
      return { ok: true, value: text };
  }
}

/**
 * recordFromForm turns the form's values into a record body. An empty input leaves its field out when
 * creating, and clears it (null) when editing a record that held a value. Inputs that cannot be read
 * (a number that is not one, JSON that does not parse) are problems, and nothing is sent.
 */
export function recordFromForm(
  fields: FormField[],
  values: FormValues,
  original: Record<string, unknown> | null,
): { data: Record<string, unknown>; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const build = (list: FormField[], into: Record<string, unknown>) => {
    for (const field of list) {
      const key = field.path.split('.').pop() ?? field.path;
      if (field.fields) {
        const child: Record<string, unknown> = {};
        build(field.fields, child);
        if (Object.keys(child).length > 0) into[key] = child;
        else if (original && valueAt(original, field.path) !== undefined) into[key] = null;
        continue;
      }
      const input = values[field.path] ?? '';
      if (input === '') {
        const before = original && !field.path.includes('.') ? valueAt(original, field.path) : undefined;
        if (before !== undefined && before !== null) into[key] = null;
        continue;
      }
      const parsed = parseInput(field, input);
      if (parsed.ok) into[key] = parsed.value;
      else problems.push({ path: field.path, message: parsed.message });
    }
  };
  const data: Record<string, unknown> = {};
  build(fields, data);
  return { data, problems };
}
