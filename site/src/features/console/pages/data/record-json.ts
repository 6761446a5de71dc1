// A record as the editor's JSON tab holds it: the stored record without the fields the server stamps.

/** STAMP_FIELDS are set by the server on every record; a write leaves them out. */
export const STAMP_FIELDS = [
  'id',
  'created_date',
  'updated_date',
  'created_by',
  'created_by_id',
  'is_sample',
];

/** editableOf is record without its stamps (an empty object for a new record). */
export function editableOf(record: Record<string, unknown> | null): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record ?? {}).filter(([key]) => !STAMP_FIELDS.includes(key)));
}

/**
 * jsonBodyOf reads the JSON tab's text as a record body: it must be an object; stamps are dropped, and a
 * field the original held that the text no longer has is cleared (null), as an update only merges.
 */
export function jsonBodyOf(
  text: string,
  original: Record<string, unknown> | null,
): { ok: true; data: Record<string, unknown> } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `The JSON is not valid: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'The JSON must be one object: the record' };
  }
  const data = editableOf(value as Record<string, unknown>);
  for (const key of Object.keys(editableOf(original))) if (!(key in data)) data[key] = null;
  return { ok: true, data };
}
