import type { Queryable } from './database';

/** UserRow is one row of the users table, password hash included: it never leaves the services. */
export interface UserRow {
  id: string;
  app_id: string;
  email: string;
  full_name: string;
  /** role is `admin` (the operator), `user`, or another role the project's User.jsonc declares. */
  role: string;
  is_verified: boolean;
  disabled: boolean;
  approved: boolean;
  password_hash: string | null;
  custom: Record<string, unknown>;
  /** token_version is bumped by every password, role or disabled change; older access tokens stop working. */
  token_version: number;
  created_date: Date;
  updated_date: Date;
}

/** NewUser is what creating a user needs. */
export interface NewUser {
  id: string;
  appId: string;
  email: string;
  fullName: string;
  role: string;
  isVerified: boolean;
  approved: boolean;
  passwordHash: string | null;
}

/** UserChanges lists the columns a single update may set; undefined leaves a column as it is. */
export interface UserChanges {
  fullName?: string | undefined;
  role?: string | undefined;
  isVerified?: boolean | undefined;
  disabled?: boolean | undefined;
  approved?: boolean | undefined;
  passwordHash?: string | undefined;
  custom?: Record<string, unknown> | undefined;
  /**
   * keepAnAdmin refuses (the update answers null) a change that would leave the app with no enabled admin,
   * decided on the rows as they are when it writes, not on a count read before.
   */
  keepAnAdmin?: boolean | undefined;
}

/**
 * OTHER_ENABLED_ADMIN is true while an enabled admin of $1 other than $2 exists. Its rows are locked in id
 * order and re-read once a concurrent write to them commits, so two admins demoting (or disabling, or
 * deleting) each other at once cannot both pass: the second one waits and then sees the first's change.
 */
const OTHER_ENABLED_ADMIN = `EXISTS (SELECT 1 FROM (
    SELECT id FROM users WHERE app_id = $1 AND role = 'admin' AND NOT disabled ORDER BY id FOR UPDATE
  ) AS admins WHERE admins.id <> $2)`;

const COLUMNS = `id, app_id, email, full_name, role, is_verified, disabled, approved, password_hash, custom,
  token_version, created_date, updated_date`;

/** createUsersStore returns the SQL for the users table. */
export function createUsersStore(db: Queryable) {
  return {
    /** findById returns the user of appId with that id, or null. */
    async findById(appId: string, id: string): Promise<UserRow | null> {
      // By the primary key alone (ids are unique across apps): with `app_id = $1` in the statement, a planner
      // without statistics may walk the app's (app_id, email) index instead. The app is checked on the row.
      const { rows } = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
      const user = rows[0];
      return user && user.app_id === appId ? user : null;
    },
    /** findByIds returns the users of appId among ids (at most 1,000), in one query; unknown ids are left out. */
    async findByIds(appId: string, ids: readonly string[]): Promise<UserRow[]> {
      if (ids.length === 0) return [];
      if (ids.length > 1_000) throw new Error('findByIds reads at most 1000 users at once');
      const { rows } = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = ANY($1::text[])`, [
        [...ids],
      ]);
      return rows.filter((user) => user.app_id === appId);
    },
    /** findByEmail looks a user up by email, ignoring case. */
    async findByEmail(appId: string, email: string): Promise<UserRow | null> {
      const { rows } = await db.query<UserRow>(
        `SELECT ${COLUMNS} FROM users WHERE app_id = $1 AND lower(email) = lower($2)`,
        [appId, email],
      );
      return rows[0] ?? null;
    },
    /** insert creates a user and returns the stored row. */
    async insert(user: NewUser): Promise<UserRow> {
      const { rows } = await db.query<UserRow>(
        `INSERT INTO users (id, app_id, email, full_name, role, is_verified, approved, password_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
        [
          user.id,
          user.appId,
          user.email,
          user.fullName,
          user.role,
          user.isVerified,
          user.approved,
          user.passwordHash,
        ],
      );
      const row = rows[0];
      if (!row) throw new Error('insert into users returned no row');
      return row;
    },
    /**
     * update sets the given columns (custom fields are merged) and returns the row, or null if gone.
     * Setting a password, or changing the role or the disabled flag, bumps token_version in the same
     * statement, so no path can change them and leave older tokens valid.
     */
    async update(appId: string, id: string, changes: UserChanges): Promise<UserRow | null> {
      const { rows } = await db.query<UserRow>(
        `UPDATE users SET
           token_version = token_version + CASE
             WHEN $8::text IS NOT NULL OR ($4::text IS NOT NULL AND $4::text <> role)
               OR ($6::boolean IS NOT NULL AND $6::boolean <> disabled) THEN 1
             ELSE 0 END,
           full_name = COALESCE($3, full_name),
           role = COALESCE($4, role),
           is_verified = COALESCE($5, is_verified),
           disabled = COALESCE($6, disabled),
           approved = COALESCE($7, approved),
           password_hash = COALESCE($8, password_hash),
           custom = custom || COALESCE($9::jsonb, '{}'::jsonb),
           updated_date = now()
         WHERE app_id = $1 AND id = $2
           AND (NOT $10::boolean OR role <> 'admin' OR disabled
             OR (COALESCE($4, role) = 'admin' AND NOT COALESCE($6, disabled))
             OR ${OTHER_ENABLED_ADMIN})
         RETURNING ${COLUMNS}`,
        [
          appId,
          id,
          changes.fullName ?? null,
          changes.role ?? null,
          changes.isVerified ?? null,
          changes.disabled ?? null,
          changes.approved ?? null,
          changes.passwordHash ?? null,
          changes.custom ? JSON.stringify(changes.custom) : null,
          changes.keepAnAdmin ?? false,
        ],
      );
      return rows[0] ?? null;
    },
    /**
     * clearPendingPassword forgets the password of an account that is not verified yet, so that no code can
     * activate it: only a mailed reset link (which proves the mailbox) sets one then.
     */
    async clearPendingPassword(appId: string, id: string): Promise<void> {
      await db.query(
        `UPDATE users SET password_hash = NULL, updated_date = now()
         WHERE app_id = $1 AND id = $2 AND NOT is_verified`,
        [appId, id],
      );
    },
    /** countAdmins returns how many enabled admins appId has (a disabled one can run nothing). */
    async countAdmins(appId: string): Promise<number> {
      const { rows } = await db.query<{ n: number | string }>(
        `SELECT count(*) AS n FROM users WHERE app_id = $1 AND role = 'admin' AND NOT disabled`,
        [appId],
      );
      return Number(rows[0]?.n ?? 0);
    },
    /**
     * remove deletes the user and returns its row, or null when it is gone or (keepLastAdmin) it is the
     * app's only admin; the check and the delete are one statement.
     */
    async remove(appId: string, id: string, keepLastAdmin: boolean): Promise<UserRow | null> {
      const { rows } = await db.query<UserRow>(
        `DELETE FROM users WHERE app_id = $1 AND id = $2
           AND (NOT $3 OR role <> 'admin' OR disabled OR ${OTHER_ENABLED_ADMIN})
         RETURNING ${COLUMNS}`,
        [appId, id, keepLastAdmin],
      );
      return rows[0] ?? null;
    },
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
