import type { Queryable } from './database';

/** OtpRow is the one pending sign-up code of a user, stored as a hash. */
export interface OtpRow {
  user_id: string;
  code_hash: string;
  expires_at: Date;
  failed_attempts: number;
  /** password_hash is the password chosen with the sign-up this code confirms: the one it activates. */
  password_hash: string | null;
}

/** PasswordTokenPurpose says why a set-password token was issued. */
export type PasswordTokenPurpose = 'reset' | 'invite';

/** PasswordTokenRow is one single-use set-password token, stored as a sha256 hash. */
export interface PasswordTokenRow {
  token_hash: string;
  user_id: string;
  purpose: PasswordTokenPurpose;
  expires_at: Date;
}

/** createAuthCodesStore returns the SQL for OTP codes and set-password tokens. */
export function createAuthCodesStore(db: Queryable) {
  return {
    /**
     * replaceOtp stores a new code for the user bound to passwordHash, voiding any earlier code; a null
     * passwordHash keeps the hash the earlier code was bound to (a resent code confirms the same sign-up).
     */
    async replaceOtp(
      userId: string,
      codeHash: string,
      expiresAt: Date,
      passwordHash: string | null,
    ): Promise<void> {
      await db.query(
        `INSERT INTO otp_codes (user_id, code_hash, expires_at, failed_attempts, password_hash)
         VALUES ($1, $2, $3, 0, $4)
         ON CONFLICT (user_id) DO UPDATE SET code_hash = $2, expires_at = $3, failed_attempts = 0,
           password_hash = COALESCE($4, otp_codes.password_hash)`,
        [userId, codeHash, expiresAt, passwordHash],
      );
    },
    /** findOtp returns the user's pending code, or null. */
    async findOtp(userId: string): Promise<OtpRow | null> {
      const { rows } = await db.query<OtpRow>(
        `SELECT user_id, code_hash, expires_at, failed_attempts, password_hash FROM otp_codes
         WHERE user_id = $1`,
        [userId],
      );
      return rows[0] ?? null;
    },
    /** countFailedOtp adds one failed attempt and returns the new count. */
    async countFailedOtp(userId: string): Promise<number> {
      const { rows } = await db.query<{ failed_attempts: number }>(
        'UPDATE otp_codes SET failed_attempts = failed_attempts + 1 WHERE user_id = $1 RETURNING failed_attempts',
        [userId],
      );
      return Number(rows[0]?.failed_attempts ?? 0);
    },
    /** deleteOtp removes the user's code (used or voided). */
    async deleteOtp(userId: string): Promise<void> {
      await db.query('DELETE FROM otp_codes WHERE user_id = $1', [userId]);
    },
    /** insertPasswordToken stores a set-password token by its hash. */
    async insertPasswordToken(row: PasswordTokenRow): Promise<void> {
      await db.query(
        'INSERT INTO password_tokens (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)',
        [row.token_hash, row.user_id, row.purpose, row.expires_at],
      );
    },
    /** takePasswordToken deletes the token and returns it, so a token can be used at most once. */
    async takePasswordToken(tokenHash: string): Promise<PasswordTokenRow | null> {
      const { rows } = await db.query<PasswordTokenRow>(
        'DELETE FROM password_tokens WHERE token_hash = $1 RETURNING token_hash, user_id, purpose, expires_at',
        [tokenHash],
      );
      return rows[0] ?? null;
    },
    /** deletePasswordTokens voids every set-password token of a user (after a password change). */
    async deletePasswordTokens(userId: string): Promise<void> {
      await db.query('DELETE FROM password_tokens WHERE user_id = $1', [userId]);
    },
  };
}

export type AuthCodesStore = ReturnType<typeof createAuthCodesStore>;
