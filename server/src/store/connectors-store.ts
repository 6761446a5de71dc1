import type { Queryable } from './database';

/** ConnectionRow is one stored connection (its tokens sealed). */
export interface ConnectionRow {
  connector: string;
  owner_id: string;
  sealed: string;
  status: 'connected' | 'broken';
  expires_at: Date | null;
  connected_at: Date;
}

/** NewConnection is what a finished connect stores. */
export interface NewConnection {
  appId: string;
  connector: string;
  /** ownerId is '' for the app-level connection, else the user's id (also userId). */
  ownerId: string;
  sealed: string;
  expiresAt: Date | null;
}

/** MAX_PENDING_STATES is how many unfinished connects one owner may have; older ones are dropped. */
export const MAX_PENDING_STATES = 20;

/** ConnectorsStore is the SQL for connector connections and started connects. */
export type ConnectorsStore = ReturnType<typeof createConnectorsStore>;

const COLUMNS = 'connector, owner_id, sealed, status, expires_at, connected_at';

/** createConnectorsStore returns the SQL for connectors (token values arrive and leave sealed). */
export function createConnectorsStore(db: Queryable) {
  return {
    /** find returns one connection, or null. */
    async find(appId: string, connector: string, ownerId: string): Promise<ConnectionRow | null> {
      const { rows } = await db.query<ConnectionRow>(
        `SELECT ${COLUMNS} FROM connector_connections WHERE app_id = $1 AND connector = $2 AND owner_id = $3`,
        [appId, connector, ownerId],
      );
      return rows[0] ?? null;
    },
    /** appConnections returns the app-level connections. */
    async appConnections(appId: string): Promise<ConnectionRow[]> {
      const { rows } = await db.query<ConnectionRow>(
        `SELECT ${COLUMNS} FROM connector_connections WHERE app_id = $1 AND owner_id = ''`,
        [appId],
      );
      return rows;
    },
    /** userConnectionCounts counts users' connections per connector. */
    async userConnectionCounts(appId: string): Promise<Map<string, number>> {
      const { rows } = await db.query<{ connector: string; count: string | number }>(
        `SELECT connector, count(*) AS count FROM connector_connections
         WHERE app_id = $1 AND owner_id <> '' GROUP BY connector`,
        [appId],
      );
      return new Map(rows.map((row) => [row.connector, Number(row.count)]));
    },
    /** put stores a fresh connection, replacing (and mending) any earlier one. */
    async put(connection: NewConnection): Promise<void> {
      await db.query(
        `INSERT INTO connector_connections
           (app_id, connector, owner_id, user_id, sealed, status, expires_at, connected_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'connected', $6, now(), now())
         ON CONFLICT (app_id, connector, owner_id) DO UPDATE SET sealed = EXCLUDED.sealed,
           status = 'connected', expires_at = EXCLUDED.expires_at, refresh_lease_until = NULL,
           connected_at = now(), updated_at = now()`,
        [
          connection.appId,
          connection.connector,
          connection.ownerId,
          connection.ownerId === '' ? null : connection.ownerId,
          connection.sealed,
          connection.expiresAt,
        ],
      );
    },
    /**
     * takeRefreshLease marks the connection as being refreshed by the caller until leaseMs passes, unless
     * another caller holds an unexpired lease; it says whether the caller got it.
     */
    async takeRefreshLease(appId: string, connector: string, ownerId: string, leaseMs: number) {
      const { rows } = await db.query<{ owner_id: string }>(
        `UPDATE connector_connections SET refresh_lease_until = now() + ($4::int * interval '1 millisecond')
         WHERE app_id = $1 AND connector = $2 AND owner_id = $3
           AND (refresh_lease_until IS NULL OR refresh_lease_until < now())
         RETURNING owner_id`,
        [appId, connector, ownerId, leaseMs],
      );
      return rows.length > 0;
    },
    /** refreshed stores refreshed tokens and ends the lease. */
    async refreshed(
      appId: string,
      connector: string,
      ownerId: string,
      sealed: string,
      expiresAt: Date | null,
    ): Promise<void> {
      await db.query(
        `UPDATE connector_connections SET sealed = $4, expires_at = $5, status = 'connected',
           refresh_lease_until = NULL, updated_at = now()
         WHERE app_id = $1 AND connector = $2 AND owner_id = $3`,
        [appId, connector, ownerId, sealed, expiresAt],
      );
    },
    /** endLease gives the lease up, marking the connection broken when the provider refused it. */
    async endLease(appId: string, connector: string, ownerId: string, broken: boolean): Promise<void> {
      await db.query(
        `UPDATE connector_connections SET refresh_lease_until = NULL,
           status = CASE WHEN $4 THEN 'broken' ELSE status END, updated_at = now()
         WHERE app_id = $1 AND connector = $2 AND owner_id = $3`,
        [appId, connector, ownerId, broken],
      );
    },
    /** remove deletes a connection and returns it (null: there was none). */
    async remove(appId: string, connector: string, ownerId: string): Promise<ConnectionRow | null> {
      const { rows } = await db.query<ConnectionRow>(
        `DELETE FROM connector_connections WHERE app_id = $1 AND connector = $2 AND owner_id = $3
         RETURNING ${COLUMNS}`,
        [appId, connector, ownerId],
      );
      return rows[0] ?? null;
    },
    /** putState keeps a started connect, dropping the owner's expired and oldest pending ones. */
    async putState(
      id: string,
      appId: string,
      ownerId: string,
      sealed: string,
      expiresAt: Date,
    ): Promise<void> {
      await db.query(
        `DELETE FROM connector_states WHERE app_id = $1 AND owner_id = $2
           AND (expires_at < now() OR id IN (
             SELECT id FROM connector_states WHERE app_id = $1 AND owner_id = $2
             ORDER BY expires_at DESC OFFSET $3))`,
        [appId, ownerId, MAX_PENDING_STATES - 1],
      );
      await db.query(
        'INSERT INTO connector_states (id, app_id, owner_id, sealed, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [id, appId, ownerId, sealed, expiresAt],
      );
    },
    /** takeState removes a started connect and returns it if it had not expired (single use). */
    async takeState(id: string): Promise<{ app_id: string; sealed: string } | null> {
      const { rows } = await db.query<{ app_id: string; sealed: string }>(
        'DELETE FROM connector_states WHERE id = $1 AND expires_at >= now() RETURNING app_id, sealed',
        [id],
      );
      return rows[0] ?? null;
    },
  };
}
