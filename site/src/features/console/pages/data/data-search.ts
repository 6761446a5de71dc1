// The Data page's URL state: `?entity=<Name>` picks the entity, `&as=<userId>` views it as that user.

/** DataSearch is the Data page's search params. */
export interface DataSearch {
  entity?: string | undefined;
  as?: string | undefined;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value.slice(0, 200) : undefined);

/** dataSearchOf keeps the two params the page knows, as non-empty strings (anything else is dropped). */
export function dataSearchOf(search: Record<string, unknown>): DataSearch {
  return { entity: text(search.entity), as: text(search.as) };
}
