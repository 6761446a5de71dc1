// App secrets (functions' environment, custom integrations' auth headers): the store under the configured
// key, checked at start, with every instance told of changes. The admin part sets and lists them.
import type { Logger } from 'pino';
import type { ServerSecrets } from '../../lib/secrets-file';
import type { RealtimeHub } from '../../realtime/realtime-hub';
import { createSecretsService, type SecretsService } from '../../services/secrets/secrets-service';
import type { Database } from '../../store/database';
import { createSecretsStore } from '../../store/secrets-store';
import type { Part, Shared } from './part';

/** SecretsPart is the app secrets service and what the start-up report says of it (names, never values). */
export interface SecretsPart extends Part {
  secrets: SecretsService;
  report: { stored: number; keySource: string };
}

/**
 * buildSecretsService is the app secrets store on db with the configured key; the server passes its hub so
 * every instance hears changes, the CLI's direct mode has none.
 */
export function buildSecretsService(
  db: Database,
  secrets: ServerSecrets,
  hub?: RealtimeHub,
  logger?: Logger,
): SecretsService {
  return createSecretsService({
    store: createSecretsStore(db),
    key: secrets.secretsKey,
    keySource: secrets.secretsKeySource === 'SECRETS_KEY' ? 'SECRETS_KEY' : 'DATA_DIR/secrets.json',
    hub,
    onListenerError: (error) => logger?.error({ err: error }, 'secrets change listener failed'),
  });
}

/** buildSecretsPart opens the app secrets; a key that cannot open them stops the start. */
export async function buildSecretsPart(shared: Shared): Promise<SecretsPart> {
  const { config, logger } = shared;
  const secrets = buildSecretsService(shared.db, shared.secrets, shared.realtime.hub, logger);
  // Here rather than failing functions later.
  const stored = await secrets.verifyKey(config.APP_ID);
  // Said on every instance (the change arrives through the hub): names only, never a value.
  secrets.subscribe((change) => logger.info(change, 'app secret changed'));
  return { name: 'secrets', secrets, report: { stored, keySource: shared.secrets.secretsKeySource } };
}
