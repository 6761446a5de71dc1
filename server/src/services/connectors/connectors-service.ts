// Connectors: the app's connection to each declared OAuth service and each user's own. Connecting is
// connect-flow.ts; the tokens are sealed (connection-tokens.ts) and handed to the service role only,
// refreshed when they expire; callApi is connector-calls.ts.
import type { ConnectorDef } from '../../project/connector-loader';
import type { ConnectorsStore } from '../../store/connectors-store';
import { secretUrl, type Discoveries, type ReadSecret } from '../auth/oidc-client';
import type { PublicFetch } from '../../lib/public-fetch';
import { sendCall, targetUrl, type CallAnswer, type ConnectorCall } from './connector-calls';
import type { AuditActor, AuditLog } from '../audit/audit-log';
import { ConnectorError } from './connector-errors';
import { revokeToken } from './connector-oauth';
import { missingSecretNames, resolveConnectorSettings, type ConnectorSettings } from './connector-settings';
import { APP_OWNER, createConnectFlow, type FinishedConnect, type StartedConnect } from './connect-flow';
import { createConnectionTokens, type ConnectionTokens } from './connection-tokens';

export { APP_OWNER, bindingCookieName, type FinishedConnect, type StartedConnect } from './connect-flow';

/** ConnectorsServiceDeps are the app's connectors, secrets, key, store and settings. */
export interface ConnectorsServiceDeps {
  appId: string;
  connectors: ReadonlyMap<string, ConnectorDef>;
  /** secrets reads every app secret at once (one query per resolution, not one per setting). */
  secrets: () => Promise<Readonly<Record<string, string>>>;
  /** googleClientId is the auth config's `googleOAuthClientId` (one Google client for sign-in and connectors). */
  googleClientId?: string | undefined;
  key: Buffer;
  store: ConnectorsStore;
  discoveries: Discoveries;
  stateTtlMs: number;
  /** fetchPublic is the outbound guard `callApi` goes through; callTimeoutMs bounds each call. */
  fetchPublic: PublicFetch;
  callTimeoutMs: number;
  /** audit records the operator's connects and disconnects of the app's connections. */
  audit: Pick<AuditLog, 'record'>;
}

/** ConnectorView is a connector as the admin API lists it (no tokens). */
export interface ConnectorView {
  type: string;
  connector_id: string | null;
  scopes: string[];
  configured: boolean;
  missing_secrets: string[];
  status: 'connected' | 'broken' | 'not_connected' | 'not_configured';
  connected_at: string | null;
  expires_at: string | null;
  app_user_connections: number;
}

/** TokenAnswer is what the SDK's token methods read. */
export interface TokenAnswer {
  access_token: string;
  integration_type: string;
  connection_config: Record<string, string> | null;
  expires_at: string | null;
}

/** ConnectorsService is what the connector routes and the CLI call. */
export interface ConnectorsService {
  /** definitionOf finds a declared connector by type or connector id, else 404 connector_not_found. */
  definitionOf(ref: string): ConnectorDef;
  list(): Promise<ConnectorView[]>;
  startConnect(
    ref: string,
    ownerId: string,
    input: { redirectUri: string; fromUrl?: string | undefined; actor?: AuditActor | undefined },
  ): Promise<StartedConnect>;
  /** finishConnect takes the callback's state once; cookie reads the browser's cookie by name. */
  finishConnect(
    query: URLSearchParams,
    cookie: (name: string) => string | undefined,
  ): Promise<FinishedConnect>;
  token(ref: string, ownerId: string): Promise<TokenAnswer>;
  settingsOf(ref: string): Promise<ConnectorSettings>;
  /** call sends one request to the connector's API with the app's connection (one retry after a 401). */
  call(ref: string, call: ConnectorCall): Promise<CallAnswer>;
  disconnect(ref: string, ownerId: string, actor?: AuditActor): Promise<{ success: true; revoked: boolean }>;
  /** unconfigured names, per connector lacking secrets, what to set (the start-up warning). */
  unconfigured(): Promise<Array<{ type: string; missing: string[] }>>;
}

/** createConnectorsService returns the connectors of the app. */
export function createConnectorsService(deps: ConnectorsServiceDeps): ConnectorsService {
  const tokens: ConnectionTokens = createConnectionTokens({ key: deps.key, store: deps.store });
  const byId = new Map(
    [...deps.connectors.values()].flatMap((def) => (def.connectorId ? [[def.connectorId, def]] : [])),
  );

  function definitionOf(ref: string): ConnectorDef {
    const def = deps.connectors.get(ref.toLowerCase()) ?? byId.get(ref);
    if (!def) {
      throw new ConnectorError(
        'connector_not_found',
        `No connector "${ref.slice(0, 100)}": declare it in base44/connectors/<type>.jsonc`,
      );
    }
    return def;
  }

  async function discover(url: string) {
    const config = await deps.discoveries.discover(
      secretUrl('discovery_url', url),
      'connectors',
      'connectors',
    );
    const metadata = config.serverMetadata();
    return {
      authorizeUrl: metadata.authorization_endpoint,
      tokenUrl: metadata.token_endpoint,
      revokeUrl: metadata.revocation_endpoint,
    };
  }

  async function settingsOf(ref: string): Promise<ConnectorSettings> {
    const def = definitionOf(ref);
    const all = await deps.secrets();
    const secret: ReadSecret = async (name) => (Object.hasOwn(all, name) ? all[name] : undefined);
    const resolved = await resolveConnectorSettings(def.type, secret, discover, deps.googleClientId);
    if ('missing' in resolved) {
      throw new ConnectorError(
        'connector_not_configured',
        `${def.type} is not configured: set ${resolved.missing.join(' and ')} with \`npm run cli -- secrets set NAME\``,
      );
    }
    return resolved.settings;
  }

  function answer(def: ConnectorDef, fresh: ReturnType<ConnectionTokens['open']>): TokenAnswer {
    return {
      access_token: fresh.accessToken,
      integration_type: def.type,
      connection_config: fresh.connectionConfig,
      expires_at: fresh.expiresAt === undefined ? null : new Date(fresh.expiresAt * 1000).toISOString(),
    };
  }

  const flow = createConnectFlow({ ...deps, tokens, definitionOf, settingsOf });

  return {
    definitionOf,
    settingsOf,

    async list() {
      const names = new Set(Object.keys(await deps.secrets()));
      const rows = new Map((await deps.store.appConnections(deps.appId)).map((row) => [row.connector, row]));
      const users = await deps.store.userConnectionCounts(deps.appId);
      const views: ConnectorView[] = [];
      for (const def of deps.connectors.values()) {
        const missing = await missingSecretNames(def.type, (name) => names.has(name), deps.googleClientId);
        const row = rows.get(def.type);
        views.push({
          type: def.type,
          connector_id: def.connectorId ?? null,
          scopes: def.scopes,
          configured: missing.length === 0,
          missing_secrets: missing,
          status: missing.length > 0 ? 'not_configured' : (row?.status ?? 'not_connected'),
          connected_at: row?.connected_at.toISOString() ?? null,
          expires_at: row?.expires_at?.toISOString() ?? null,
          app_user_connections: users.get(def.type) ?? 0,
        });
      }
      return views;
    },

    startConnect: flow.start,
    finishConnect: flow.finish,

    async token(ref, ownerId) {
      const def = definitionOf(ref);
      // Configured first: a connector without its client is told so, connected or not.
      const settings = await settingsOf(def.type);
      const fresh = await tokens.valid(deps.appId, def.type, ownerId, async () => settings);
      return answer(def, fresh);
    },

    async call(ref, call) {
      const def = definitionOf(ref);
      const settings = await settingsOf(def.type);
      const url = targetUrl(settings, call);
      const current = await tokens.valid(deps.appId, def.type, APP_OWNER, async () => settings);
      const answer = await sendCall(deps.fetchPublic, url, call, current.accessToken, deps.callTimeoutMs);
      if (answer.status_code !== 401) return answer;
      // The provider no longer takes this token (revoked, rotated early): one refresh, one retry.
      const fresh = await tokens.forceRefresh(deps.appId, def.type, APP_OWNER, async () => settings);
      return sendCall(deps.fetchPublic, url, call, fresh.accessToken, deps.callTimeoutMs);
    },

    async disconnect(ref, ownerId, actor) {
      const def = definitionOf(ref);
      const removed = await deps.store.remove(deps.appId, def.type, ownerId);
      if (!removed) return { success: true, revoked: false };
      if (actor) {
        await deps.audit.record(deps.appId, actor, {
          action: 'connector.disconnect',
          target: `connector:${def.type}`,
          before: { status: removed.status },
          after: { status: 'not_connected' },
        });
      }
      // The connection is gone here whatever the provider says; revoking is a courtesy to the user.
      try {
        const kept = tokens.open(deps.appId, removed);
        const settings = await settingsOf(def.type);
        return { success: true, revoked: await revokeToken(settings, kept.refreshToken ?? kept.accessToken) };
      } catch {
        return { success: true, revoked: false };
      }
    },

    async unconfigured() {
      const names = new Set(Object.keys(await deps.secrets()));
      const problems: Array<{ type: string; missing: string[] }> = [];
      for (const def of deps.connectors.values()) {
        const missing = await missingSecretNames(def.type, (name) => names.has(name), deps.googleClientId);
        if (missing.length > 0) problems.push({ type: def.type, missing });
      }
      return problems;
    },
  };
}
