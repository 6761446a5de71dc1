import { describe, expect, it } from 'vitest';
import { databaseErrorAnswer, sqlState } from './database-errors';

const dbError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('databaseErrorAnswer', () => {
  it.each([
    ['22021', 'invalid byte sequence for encoding "UTF8": 0x00', 400],
    ['22003', 'value "99999999999" is out of range for type integer', 400],
    ['22P02', 'invalid input syntax for type integer: "x"', 400],
    ['54001', 'stack depth limit exceeded', 400],
    ['23505', 'duplicate key value violates unique constraint "users_pkey"', 409],
    ['57014', 'canceling statement due to statement timeout', 503],
    ['XX000', 'internal error in relation "users"', 500],
  ])('answers %s with a fixed message, never the driver text', (code, text, status) => {
    const answer = databaseErrorAnswer(dbError(code, text));
    expect(answer?.status).toBe(status);
    expect(answer?.message).not.toContain(text.slice(0, 12));
  });

  it('ignores errors that are not from the database', () => {
    expect(databaseErrorAnswer(new Error('x'))).toBeNull();
    expect(sqlState(Object.assign(new Error('x'), { code: 'FST_ERR_BAD_URL' }))).toBeNull();
    expect(sqlState(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBeNull();
  });

  it('answers 503 for what a retry may cure: lost connection, no resources, deadlock, restart', () => {
    for (const code of ['08006', '53300', '40P01', '40001', '57P01']) {
      const answer = databaseErrorAnswer(Object.assign(new Error('driver text'), { code }));
      expect(answer, code).toEqual({
        status: 503,
        message: 'The database is unavailable right now: try again in a moment',
      });
    }
  });
});
