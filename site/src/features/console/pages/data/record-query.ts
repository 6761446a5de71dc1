// The grid's query in the SDK's filter language: the filter box's JSON and the quick search, which matches
// its text literally (escaped, bounded) in any string field through `$regex`, the operator the server
// already bounds (pattern checks, a scan budget and a deadline).

/** MAX_SEARCH_LENGTH bounds the quick search's text (the server caps a pattern's length too). */
export const MAX_SEARCH_LENGTH = 100;

/** escapeRegex makes text match itself literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** stringFieldsOf are the top-level string properties of a schema, plus created_by. */
export function stringFieldsOf(schema: Record<string, unknown>): string[] {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const names = Object.entries(properties)
    .filter(([, property]) => property.type === 'string')
    .map(([name]) => name);
  return [...names, 'created_by'];
}

/** FilterParse is the filter box's text parsed: an object, or why not. */
export type FilterParse = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** parseFilter reads the filter box: empty is no filter; otherwise a JSON object. */
export function parseFilter(text: string): FilterParse {
  if (!text.trim()) return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, message: 'The filter must be a JSON object, e.g. {"status":"open"}' };
    }
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, message: `The filter is not valid JSON: ${(error as Error).message}` };
  }
}

/** combinedQuery is the filter and the quick search together (both must hold). */
export function combinedQuery(
  filter: Record<string, unknown>,
  search: string,
  fields: string[],
): Record<string, unknown> {
  const text = search.trim().slice(0, MAX_SEARCH_LENGTH);
  if (!text) return filter;
  const pattern = escapeRegex(text);
  const anyField = { $or: fields.map((field) => ({ [field]: { $regex: pattern, $options: 'i' } })) };
  return Object.keys(filter).length === 0 ? anyField : { $and: [filter, anyField] };
}
