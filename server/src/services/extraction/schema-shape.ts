// What a caller's json_schema asks for, as far as the deterministic mappers are concerned: rows of a
// table (a bare array, or one array property of an object), the whole text, or something only an LLM
// can fill.

/** PropertySchema is the part of a JSON schema property the coercion reads. */
export interface PropertySchema {
  type?: string | string[];
  format?: string;
  title?: string;
  enum?: unknown[];
  items?: PropertySchema;
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

/** RowSchema is the object each table row becomes: its properties and which are required. */
export interface RowSchema {
  properties: Record<string, PropertySchema>;
  required: string[];
}

/** SchemaShape is how the output is built: rows (optionally under one property), text, or neither. */
export type SchemaShape =
  | { kind: 'rows'; row: RowSchema; wrapIn: string | null }
  | { kind: 'text'; field: string | null }
  | { kind: 'other' };

function asObject(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** typeOf is a property's main type (the first non-null one of a list). */
export function typeOf(schema: PropertySchema | undefined): string | undefined {
  const type = schema?.type;
  if (Array.isArray(type)) return type.find((entry) => entry !== 'null');
  if (type === undefined && schema?.properties) return 'object';
  return type;
}

function rowSchemaOf(schema: Record<string, unknown> | null): RowSchema | null {
  const properties = asObject(schema?.properties);
  if (!properties || Object.keys(properties).length === 0) return null;
  const required = Array.isArray(schema?.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  return { properties: properties as Record<string, PropertySchema>, required };
}

function isScalar(schema: PropertySchema | undefined): boolean {
  const type = typeOf(schema);
  return type !== 'object' && !(type === 'array' && typeOf(schema?.items) === 'object');
}

/** shapeOf reads a json_schema: array of objects, object wrapping one, object of scalars, or one string. */
export function shapeOf(jsonSchema: unknown): SchemaShape {
  const schema = asObject(jsonSchema);
  if (!schema) return { kind: 'other' };
  const type = typeOf(schema as PropertySchema);
  if (type === 'string') return { kind: 'text', field: null };
  if (type === 'array') {
    const row = rowSchemaOf(asObject(schema.items));
    return row ? { kind: 'rows', row, wrapIn: null } : { kind: 'other' };
  }
  const row = rowSchemaOf(schema);
  if (!row) return { kind: 'other' };
  const names = Object.keys(row.properties);
  const only = names.length === 1 ? (names[0] ?? null) : null;
  if (only !== null && typeOf(row.properties[only]) === 'string') return { kind: 'text', field: only };
  const tables = names.filter((name) => {
    const property = row.properties[name];
    return typeOf(property) === 'array' && rowSchemaOf(asObject(property?.items)) !== null;
  });
  const wrapIn = tables.length === 1 ? tables[0] : undefined;
  if (wrapIn !== undefined) {
    const inner = rowSchemaOf(asObject(row.properties[wrapIn]?.items));
    if (inner) return { kind: 'rows', row: inner, wrapIn };
  }
  // An object of scalar fields: each table row is one such object (what apps read as the output array).
  if (tables.length === 0 && names.every((name) => isScalar(row.properties[name]))) {
    return { kind: 'rows', row, wrapIn: null };
  }
  return { kind: 'other' };
}
