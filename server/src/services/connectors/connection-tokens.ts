// A connection's tokens: sealed with the secrets key and bound to app, connector and owner (a sealed value
// copied to another row fails to open), handed out valid for at least a minute. An expiring token is
// refreshed by one caller at a time: in this process through a shared promise, across instances through a
// lease on the row; the others wait for its result instead of spending the refresh token twice.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { openSecret, sealSecret } from '../../lib/secret-box';
import type { ConnectionRow, ConnectorsStore } from '../../store/connectors-store';
import { ConnectorError } from './connector-errors';
import { refreshTokens, type ConnectorTokens } from './connector-oauth';
import type { ConnectorSettings } from './connector-settings';

/** REFRESH_MARGIN_SECONDS renews a token this close to its expiry. */
export const REFRESH_MARGIN_SECONDS = 60;
/** REFRESH_LEASE_MS is how long one refresh may hold the row (the provider call is bounded at 10 s). */
const REFRESH_LEASE_MS = 15_000;
/** WAIT_STEP_MS is how often a waiting caller looks for another instance's refreshed token. */
const WAIT_STEP_MS = 200;

const TokensSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  expiresAt: z.number().optional(),
  scope: z.string().optional(),
  connectionConfig: z.record(z.string(), z.string()).nullable(),
});

/** ConnectionTokens seals, opens and refreshes connections' tokens. */
export interface ConnectionTokens {
  seal(appId: string, connector: string, ownerId: string, tokens: ConnectorTokens): string;
  /** valid returns the connection's tokens, refreshed first when they expire within the margin. */
  valid(
    appId: string,
    connector: string,
    ownerId: string,
    settings: () => Promise<ConnectorSettings>,
  ): Promise<ConnectorTokens>;
  /** forceRefresh refreshes now (an API answered 401 to the current token). */
  forceRefresh(
    appId: string,
    connector: string,
    ownerId: string,
    settings: () => Promise<ConnectorSettings>,
  ): Promise<ConnectorTokens>;
  open(appId: string, row: ConnectionRow): ConnectorTokens;
}

/** createConnectionTokens returns the token side of connections. */
export function createConnectionTokens(deps: {
  key: Buffer;
  store: ConnectorsStore;
  now?: () => number;
}): ConnectionTokens {
  const now = deps.now ?? Date.now;
  const owner = (appId: string, connector: string, ownerId: string) => [
    'connector-tokens',
    appId,
    connector,
    ownerId,
  ];
  const running = new Map<string, Promise<ConnectorTokens>>();

  const seal = (appId: string, connector: string, ownerId: string, tokens: ConnectorTokens) =>
    sealSecret(deps.key, owner(appId, connector, ownerId), JSON.stringify(tokens));
  const open = (appId: string, row: ConnectionRow): ConnectorTokens =>
    TokensSchema.parse(
      JSON.parse(openSecret(deps.key, owner(appId, row.connector, row.owner_id), row.sealed)),
    );
  const isFresh = (tokens: ConnectorTokens) =>
    tokens.expiresAt === undefined || tokens.expiresAt - REFRESH_MARGIN_SECONDS > now() / 1000;

  async function current(appId: string, connector: string, ownerId: string): Promise<ConnectionRow> {
    const row = await deps.store.find(appId, connector, ownerId);
    if (!row) {
      throw new ConnectorError(
        'connector_not_connected',
        ownerId === ''
          ? `${connector} is not connected: run \`npm run cli -- connectors connect ${connector}\``
          : `${connector} is not connected for this user: call connectAppUser('${connector}') from the app`,
      );
    }
    if (row.status === 'broken') throw brokenError(connector);
    return row;
  }

  async function refresh(
    appId: string,
    connector: string,
    ownerId: string,
    settings: () => Promise<ConnectorSettings>,
    stale: ConnectorTokens,
  ): Promise<ConnectorTokens> {
    const deadline = now() + REFRESH_LEASE_MS;
    for (;;) {
      if (await deps.store.takeRefreshLease(appId, connector, ownerId, REFRESH_LEASE_MS)) break;
      // Another instance is refreshing: wait for its tokens (or for its lease to lapse).
      await sleep(WAIT_STEP_MS);
      const row = await current(appId, connector, ownerId);
      const tokens = open(appId, row);
      if (tokens.accessToken !== stale.accessToken) return tokens;
      if (now() > deadline) {
        throw new ConnectorError(
          'connector_provider_unavailable',
          `${connector}'s token is being refreshed elsewhere and did not arrive in time: try again`,
        );
      }
    }
    // Holding the lease: the stored tokens may have been refreshed by the holder before us.
    const latest = open(appId, await current(appId, connector, ownerId));
    if (latest.accessToken !== stale.accessToken) {
      await deps.store.endLease(appId, connector, ownerId, false);
      return latest;
    }
    if (!latest.refreshToken) {
      await deps.store.endLease(appId, connector, ownerId, false);
      throw new ConnectorError(
        'connector_reauthorization_required',
        `${connector}'s access token expired and the provider gave no refresh token: connect it again`,
      );
    }
    try {
      const fresh = await refreshTokens(await settings(), latest.refreshToken);
      const kept = { ...fresh, connectionConfig: fresh.connectionConfig ?? latest.connectionConfig };
      const expiresAt = kept.expiresAt === undefined ? null : new Date(kept.expiresAt * 1000);
      await deps.store.refreshed(appId, connector, ownerId, seal(appId, connector, ownerId, kept), expiresAt);
      return kept;
    } catch (error) {
      const refused = error instanceof ConnectorError && error.code === 'connector_reauthorization_required';
      await deps.store.endLease(appId, connector, ownerId, refused);
      throw refused ? brokenError(connector) : error;
    }
  }

  function once(
    appId: string,
    connector: string,
    ownerId: string,
    settings: () => Promise<ConnectorSettings>,
    stale: ConnectorTokens,
  ): Promise<ConnectorTokens> {
    const key = `${appId}\u0000${connector}\u0000${ownerId}`;
    const pending = running.get(key);
    if (pending) return pending;
    const started = refresh(appId, connector, ownerId, settings, stale).finally(() => running.delete(key));
    running.set(key, started);
    return started;
  }

  return {
    seal,
    open,
    async valid(appId, connector, ownerId, settings) {
      const tokens = open(appId, await current(appId, connector, ownerId));
      if (isFresh(tokens)) return tokens;
      return once(appId, connector, ownerId, settings, tokens);
    },
    async forceRefresh(appId, connector, ownerId, settings) {
      const tokens = open(appId, await current(appId, connector, ownerId));
      return once(appId, connector, ownerId, settings, tokens);
    },
  };
}

function brokenError(connector: string): ConnectorError {
  return new ConnectorError(
    'connector_reauthorization_required',
    `${connector} refused its refresh token, so the connection is broken: connect it again`,
  );
}
