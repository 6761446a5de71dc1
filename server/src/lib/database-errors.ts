/**
 * A database error's text (SQL, values, the driver's wording) is for the log only: clients get a fixed
 * message chosen by the error's SQLSTATE class.
 */

/** DatabaseErrorAnswer is what a client is told about a failed query. */
export interface DatabaseErrorAnswer {
  status: number;
  message: string;
}

/** sqlState returns the error's SQLSTATE (five characters, from pg or PGlite), or null for other errors. */
export function sqlState(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** invalidValueMessage is the fixed text for a data exception (SQLSTATE class 22) caused by a caller's input. */
export function invalidValueMessage(state: string): string {
  if (state === '2201B') return 'a regular expression in it is invalid or too complex';
  if (state === '22003') return 'a number in it is out of range';
  if (state === '22P02' || state === '22007' || state === '22008') {
    return 'a value in it does not have the type it is compared or stored as';
  }
  if (state === '22021' || state === '22P05') return 'a string in it holds a character that cannot be stored';
  return 'a value in it cannot be stored or compared';
}

/** databaseErrorAnswer maps a database error to a status and a fixed message; null when it is not one. */
export function databaseErrorAnswer(error: unknown): DatabaseErrorAnswer | null {
  const state = sqlState(error);
  if (state === null) return null;
  if (state.startsWith('22')) return { status: 400, message: `Invalid input: ${invalidValueMessage(state)}` };
  if (state === '54000' || state === '54001') {
    return { status: 400, message: 'Invalid input: it is too large or too complex to process' };
  }
  if (state.startsWith('23')) return { status: 409, message: 'The change conflicts with stored data' };
  if (state === 'QR001') {
    return {
      status: 400,
      message:
        'Invalid query: its $regex took longer to scan the records than ENTITY_REGEX_DEADLINE_MS allows: narrow it with exact filters, or anchor the pattern with ^',
    };
  }
  if (state === '57014') return { status: 503, message: 'The database took too long to answer: try again' };
  // A lost connection, exhausted resources, a deadlock or a restarting server: the request may be retried.
  if (/^(08|53|57P|40001|40P01)/.test(state)) {
    return { status: 503, message: 'The database is unavailable right now: try again in a moment' };
  }
  return { status: 500, message: 'Internal server error' };
}
