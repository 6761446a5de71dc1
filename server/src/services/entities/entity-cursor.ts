import { InvalidInputError } from '../../lib/errors';

// v2 list cursors: base64url of JSON carrying the walk (query, sort, fields or distinct field) and the last
// position (sort value + id, or the last distinct value). Not signed: every value in it reaches SQL only
// as a parameter and the rules are re-applied on every page, so a forged cursor can only move the position.

/** CursorState is what a cursor carries. */
export interface CursorState {
  q?: unknown;
  sort?: string | undefined;
  fields?: string[] | undefined;
  distinct?: string | undefined;
  /** last position: `m` missing sort value, `v` the value, `i` the id (records); `v` only for distinct. */
  at: { m?: boolean; v?: unknown; i?: string };
}

const MAX_CURSOR = 16_384;
const invalid = (): never => {
  throw new InvalidInputError('Invalid cursor: pass the next_cursor of the previous page unchanged');
};

/** encodeCursor makes the opaque token. */
export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

/** decodeCursor checks and returns a token's state; anything malformed is a 400. */
export function decodeCursor(token: string): CursorState {
  if (token.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(token)) return invalid();
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return invalid();
  }
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return invalid();
  const { sort, fields, distinct, at } = state as Record<string, unknown>;
  if (sort !== undefined && typeof sort !== 'string') invalid();
  if (distinct !== undefined && typeof distinct !== 'string') invalid();
  if (fields !== undefined && !(Array.isArray(fields) && fields.every((f) => typeof f === 'string')))
    invalid();
  if (typeof at !== 'object' || at === null || Array.isArray(at)) return invalid();
  const { m, i } = at as Record<string, unknown>;
  if (distinct === undefined && (typeof m !== 'boolean' || typeof i !== 'string')) invalid();
  return state as CursorState;
}
