// Connectors: the project's `connectors/<type>.jsonc`, their OAuth clients from app secrets, the app's and
// each user's connections (tokens sealed in the database) and the SDK's connector routes. A connector
// without its secrets does not stop the start: a warning names them, and its calls answer 409.
import type { PublicFetch } from '../../lib/public-fetch';
import { registerConnectorsRoutes, CONNECT_CALLBACK_PATH } from '../../routes/connectors';
import type { AuditLog } from '../../services/audit/audit-log';
import { createDiscoveries } from '../../services/auth/oidc-client';
import {
  createConnectorsService,
  type ConnectorsService,
} from '../../services/connectors/connectors-service';
import type { SecretsService } from '../../services/secrets/secrets-service';
import { createConnectorsStore } from '../../store/connectors-store';
import { localUrlOf } from '../startup-report';
import type { Part, Shared } from './part';

/** ConnectorsPart is the connectors service, for the functions' `callApi` and the CLI. */
export interface ConnectorsPart extends Part {
  connectors: ConnectorsService;
}

/** buildConnectorsPart builds the connectors of the project and reports what each still needs. */
export async function buildConnectorsPart(
  shared: Shared,
  secrets: { secrets: SecretsService },
  files: { fetchPublic: PublicFetch },
  appLogs: { audit: AuditLog },
): Promise<ConnectorsPart> {
  const { config } = shared;
  const declared = shared.project.connectors ?? new Map();
  const connectors = createConnectorsService({
    appId: config.APP_ID,
    connectors: declared,
    secrets: () => secrets.secrets.secretsFor(config.APP_ID),
    googleClientId: shared.project.auth?.config.googleOAuthClientId,
    key: shared.secrets.secretsKey,
    store: createConnectorsStore(shared.db),
    discoveries: createDiscoveries(),
    stateTtlMs: config.SIGN_IN_STATE_TTL_SECONDS * 1000,
    fetchPublic: files.fetchPublic,
    callTimeoutMs: config.CONNECTOR_CALL_TIMEOUT_S * 1000,
    audit: appLogs.audit,
  });
  if (declared.size > 0) {
    for (const { type, missing } of await connectors.unconfigured()) {
      shared.logger.warn(
        { connector: type, missing },
        `connector ${type}: not configured: set ${missing.join(' and ')}`,
      );
    }
    const origin = config.PUBLIC_URL ?? localUrlOf(config);
    shared.logger.info(
      { connectors: [...declared.keys()], redirectUri: `${origin}${CONNECT_CALLBACK_PATH}` },
      'connectors are declared: register this redirect URI with each provider',
    );
  }
  return {
    name: 'connectors',
    connectors,
    routes(app, { guard, publicUrl, returnOrigins }) {
      registerConnectorsRoutes(app, { connectors, guard, publicUrl, returnOrigins });
    },
  };
}
