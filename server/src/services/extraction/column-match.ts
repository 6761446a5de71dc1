// Matching a table's header cells to schema properties: "First Name", "first_name" and "FirstName" are
// the same column; an exact match wins over a containment ("Hourly Rate (EUR)" for `hourly_rate`).
import type { PropertySchema } from './schema-shape';

/** normalise strips accents, case and everything but letters and digits. */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

// Containment needs a few characters on both sides, or "id" would match every "...id..." header.
const MIN_CONTAINED = 3;

/**
 * matchColumns maps each schema property to a header index: first by equal normalised name (or title),
 * then by one containing the other. A header serves one property at most.
 */
export function matchColumns(
  headers: readonly string[],
  properties: Record<string, PropertySchema>,
): Map<string, number> {
  const keys = headers.map((header) => normalise(header));
  const taken = new Set<number>();
  const matched = new Map<string, number>();
  const namesOf = (property: string) =>
    [property, properties[property]?.title]
      .filter((name): name is string => typeof name === 'string')
      .map(normalise)
      .filter(Boolean);
  const pass = (accepts: (key: string, name: string) => boolean) => {
    for (const property of Object.keys(properties)) {
      if (matched.has(property)) continue;
      const names = namesOf(property);
      const index = keys.findIndex(
        (key, at) => !taken.has(at) && key !== '' && names.some((name) => accepts(key, name)),
      );
      if (index >= 0) {
        matched.set(property, index);
        taken.add(index);
      }
    }
  };
  pass((key, name) => key === name);
  pass(
    (key, name) =>
      Math.min(key.length, name.length) >= MIN_CONTAINED && (key.includes(name) || name.includes(key)),
  );
  return matched;
}
