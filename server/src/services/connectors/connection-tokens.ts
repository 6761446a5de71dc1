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
/**
 * FORCED_REFRESH_COOLDOWN_MS spaces the refreshes an API's 401 asks for (per connection, on this instance):
 * a path that always answers 401 must not turn every call into a call to the provider's token endpoint.
 */
export const FORCED_REFRESH_COOLDOWN_MS = 30_000;
/** MAX_COOLDOWNS bounds the remembered forced refreshes (older ones are forgotten first). */
const MAX_COOLDOWNS = 10_000;

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
  const lastForced = new Map<string, number>();

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
    generation: number,
  ): Promise<ConnectorTokens> {
    const deadline = now() + REFRESH_LEASE_MS;
    for (;;) {
      if (await deps.store.takeRefreshLease(appId, connector, ownerId, generation, REFRESH_LEASE_MS)) break;
      // Another instance is refreshing (or a reconnect replaced the connection): wait for its tokens.
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
    let refused = false;
    try {
      // Holding the lease: the stored tokens may have been refreshed by the holder before us.
      const row = await current(appId, connector, ownerId);
      const latest = open(appId, row);
      if (latest.accessToken !== stale.accessToken) return latest;
      if (!latest.refreshToken) {
        throw new ConnectorError(
          'connector_reauthorization_required',
          `${connector}'s access token expired and the provider gave no refresh token: connect it again`,
        );
      }
      try {
        const fresh = await refreshTokens(await settings(), latest.refreshToken);
        const kept = { ...fresh, connectionConfig: fresh.connectionConfig ?? latest.connectionConfig };
        const expiresAt = kept.expiresAt === undefined ? null : new Date(kept.expiresAt * 1000);
        const sealed = seal(appId, connector, ownerId, kept);
        await deps.store.refreshed(appId, connector, ownerId, generation, sealed, expiresAt);
        return kept;
      } catch (error) {
        refused = error instanceof ConnectorError && error.code === 'connector_reauthorization_required';
        throw refused ? brokenError(connector) : error;
      }
    } finally {
      // A no-op after `refreshed` (it ended the lease); otherwise the lease is given back at once.
      await deps.store.endLease(appId, connector, ownerId, generation, refused);
    }
  }

  function once(
    appId: string,
    connector: string,
    ownerId: string,
    settings: () => Promise<ConnectorSettings>,
    row: ConnectionRow,
  ): Promise<ConnectorTokens> {
    // A refresh started for an older generation is not this connection's any more.
    const key = `${appId}\u0000${connector}\u0000${ownerId}\u0000${row.generation}`;
    const pending = running.get(key);
    if (pending) return pending;
    const stale = open(appId, row);
    const started = refresh(appId, connector, ownerId, settings, stale, row.generation).finally(() =>
      running.delete(key),
    );
    running.set(key, started);
    return started;
  }

  return {
    seal,
    open,
    async valid(appId, connector, ownerId, settings) {
      const row = await current(appId, connector, ownerId);
      const tokens = open(appId, row);
      if (isFresh(tokens)) return tokens;
      return once(appId, connector, ownerId, settings, row);
    },
    async forceRefresh(appId, connector, ownerId, settings) {
      const row = await current(appId, connector, ownerId);
      const key = `${appId}\u0000${connector}\u0000${ownerId}`;
      const last = lastForced.get(key);
      if (last !== undefined && now() - last < FORCED_REFRESH_COOLDOWN_MS) return open(appId, row);
      lastForced.delete(key);
      lastForced.set(key, now());
      if (lastForced.size > MAX_COOLDOWNS) {
        const oldest = lastForced.keys().next().value;
        if (oldest !== undefined) lastForced.delete(oldest);
      }
      return once(appId, connector, ownerId, settings, row);
    },
  };
}

function brokenError(connector: string): ConnectorError {
  return new ConnectorError(
    'connector_reauthorization_required',
    `${connector} refused its refresh token, so the connection is broken: connect it again`,
  );
}
