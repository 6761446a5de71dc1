import type { AdminUsersQuery } from '../schemas/admin-users';
import type { Queryable } from './database';

/** AdminUserRow is one user as the console's Users table lists it (never a password hash). */
export interface AdminUserRow {
  id: string;
  email: string;
  full_name: string;
  role: string;
  disabled: boolean;
  is_verified: boolean;
  created_date: string;
  /** custom is the user's custom fields (User.jsonc's and free-form), for the console's editor. */
  custom: Record<string, unknown>;
}

const ORDER_BY: Record<string, string> = {
  email: 'lower(email)',
  name: 'lower(full_name)',
  role: 'role',
  created: 'created_date',
};

/** escapeLike makes text match itself literally in a LIKE pattern (with ESCAPE '\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** createAdminUsersStore returns the console's paged, searched, sorted and filtered users list. */
export function createAdminUsersStore(db: Queryable) {
  return {
    /** page returns one page of appId's users matching query, and how many match in all. */
    async page(appId: string, query: AdminUsersQuery, pageSize: number) {
      const params: unknown[] = [appId];
      const where = ['app_id = $1'];
      if (query.q) {
        params.push(`%${escapeLike(query.q)}%`);
        where.push(
          `(email ILIKE $${params.length} ESCAPE '\\' OR full_name ILIKE $${params.length} ESCAPE '\\')`,
        );
      }
      if (query.role) {
        params.push(query.role);
        where.push(`role = $${params.length}`);
      }
      if (query.status) where.push(query.status === 'disabled' ? 'disabled' : 'NOT disabled');
      const filter = where.join(' AND ');
      const descending = query.sort.startsWith('-');
      const column = ORDER_BY[query.sort.replace('-', '')] ?? 'lower(email)';
      const order = `${column} ${descending ? 'DESC' : 'ASC'}, id ASC`;
      const [rows, count] = await Promise.all([
        db.query<AdminUserRow>(
          `SELECT id, email, full_name, role, disabled, is_verified, created_date, custom FROM users WHERE ${filter}
           ORDER BY ${order} LIMIT ${pageSize} OFFSET ${(query.page - 1) * pageSize}`,
          params,
        ),
        db.query<{ n: string | number }>(`SELECT count(*) AS n FROM users WHERE ${filter}`, params),
      ]);
      return {
        users: rows.rows.map((row) => ({ ...row, created_date: new Date(row.created_date).toISOString() })),
        total: Number(count.rows[0]?.n ?? 0),
      };
    },
  };
}

export type AdminUsersStore = ReturnType<typeof createAdminUsersStore>;
