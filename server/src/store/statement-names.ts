import { createHash } from 'node:crypto';

// Names for prepared statements (QueryOptions.reuse). A name is derived from the statement's text, so the
// same text gets the same name on every connection; the number of names is bounded, because each one holds
// a parsed statement and its plan on every connection that ran it: past the bound, statements run unnamed.

/** MAX_STATEMENT_NAMES bounds how many distinct statements are kept prepared. */
export const MAX_STATEMENT_NAMES = 256;

/** createStatementNames returns nameOf(sql): a stable name for sql, or undefined once the bound is reached. */
export function createStatementNames(max = MAX_STATEMENT_NAMES) {
  const names = new Map<string, string>();
  return function nameOf(sql: string): string | undefined {
    const known = names.get(sql);
    if (known !== undefined || names.size >= max) return known;
    const name = `q_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    names.set(sql, name);
    return name;
  };
}
