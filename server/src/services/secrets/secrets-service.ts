// App secrets (`npm run cli -- secrets …`): sealed at rest in the database, so every instance sharing it
// has them; values leave this service only through secretsFor/get (for the functions runtime and custom
// integrations), never through any API. A change is told to subscribers on this instance and, through
// the realtime hub (Redis), on every other one, so functions restart with the new values.
import { InvalidInputError, NotConfiguredError, NotFoundError } from '../../lib/errors';
import { openSecret, sealSecret, SecretOpenError } from '../../lib/secret-box';
import type { RealtimeHub } from '../../realtime/realtime-hub';
import type { SecretsStore } from '../../store/secrets-store';
import { requireSecretName } from './secret-names';

/** SECRETS_CHANGED is the name under which instances tell each other an app's secrets changed. */
export const SECRETS_CHANGED = 'queen:secrets-changed';
/** MAX_SECRETS bounds how many secrets one app keeps (each becomes an environment variable). */
export const MAX_SECRETS = 200;
/** MAX_SECRET_BYTES bounds one value (environment variables are not for files). */
export const MAX_SECRET_BYTES = 32 * 1024;

/** SecretsChange says which secret of which app was set or deleted (never its value). */
export interface SecretsChange {
  appId: string;
  name: string;
  kind: 'set' | 'deleted';
}

/** SecretsService keeps app secrets; see the file comment. */
export interface SecretsService {
  /** secretsFor returns every secret of appId by name, decrypted (for the functions runtime's env). */
  secretsFor(appId: string): Promise<Record<string, string>>;
  /** get returns one secret's value, or undefined when appId has none by that name. */
  get(appId: string, name: string): Promise<string | undefined>;
  /** names returns the names of appId's secrets, sorted (safe to show). */
  names(appId: string): Promise<string[]>;
  /** listSet returns the names with when each was last set (never a value), sorted by name. */
  listSet(appId: string): Promise<{ name: string; set_at: string }[]>;
  /** set stores value as name (a valid name; value 1 byte to MAX_SECRET_BYTES), replacing any earlier one. */
  set(appId: string, name: string, value: string): Promise<void>;
  /** delete removes name; NotFoundError when there is none. */
  delete(appId: string, name: string): Promise<void>;
  /** subscribe calls listener after every change, here or on another instance; returns the unsubscribe. */
  subscribe(listener: (change: SecretsChange) => void): () => void;
  /** verifyKey opens every stored secret of appId, throwing NotConfiguredError when the key cannot. */
  verifyKey(appId: string): Promise<number>;
}

/** SecretsServiceDeps are the store, the key and (on a server) the hub that reaches other instances. */
export interface SecretsServiceDeps {
  store: SecretsStore;
  key: Buffer;
  /** keySource names where the key came from, for the wrong-key message (SECRETS_KEY or the file). */
  keySource: string;
  hub?: Pick<RealtimeHub, 'dispatch' | 'handle'> | undefined;
  onListenerError?: (error: unknown) => void;
}

/** createSecretsService returns the SecretsService over deps.store. */
export function createSecretsService(deps: SecretsServiceDeps): SecretsService {
  const listeners = new Set<(change: SecretsChange) => void>();
  const tell = (change: SecretsChange) => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (error) {
        deps.onListenerError?.(error);
      }
    }
  };
  deps.hub?.handle(SECRETS_CHANGED, (payload) => {
    const { appId, name, kind } = (payload ?? {}) as Partial<Record<keyof SecretsChange, unknown>>;
    if (typeof appId !== 'string' || typeof name !== 'string') return;
    if (kind !== 'set' && kind !== 'deleted') return;
    tell({ appId, name, kind });
  });
  // dispatch runs the handler here too (one path for both); without a hub, tell directly.
  const changed = (change: SecretsChange) =>
    deps.hub ? deps.hub.dispatch(SECRETS_CHANGED, change) : tell(change);

  const open = (appId: string, name: string, sealed: string): string => {
    try {
      return openSecret(deps.key, [appId, name], sealed);
    } catch (error) {
      if (!(error instanceof SecretOpenError)) throw error;
      // Never garbage: a key that does not open the stored values stops whoever needs them.
      throw new NotConfiguredError(
        `The secrets key (${deps.keySource}) cannot decrypt the stored secret ${name} of app ${appId}: ${error.message}. Start with the SECRETS_KEY the secrets were stored with, or delete and set them again.`,
      );
    }
  };

  return {
    async secretsFor(appId) {
      const rows = await deps.store.list(appId);
      const values: Record<string, string> = {};
      for (const row of rows) values[row.name] = open(appId, row.name, row.sealed);
      return values;
    },
    async get(appId, name) {
      const sealed = await deps.store.find(appId, name);
      return sealed === null ? undefined : open(appId, name, sealed);
    },
    names: (appId) => deps.store.names(appId),
    listSet: (appId) => deps.store.listSet(appId),
    async set(appId, name, value) {
      requireSecretName(name);
      const bytes = Buffer.byteLength(value, 'utf8');
      if (bytes === 0) throw new InvalidInputError(`Secret ${name} needs a value (it was empty)`);
      if (bytes > MAX_SECRET_BYTES) {
        throw new InvalidInputError(`Secret ${name} is too long: at most ${MAX_SECRET_BYTES} bytes`);
      }
      if (value.includes('\u0000'))
        throw new InvalidInputError(`Secret ${name} may not hold a NUL character`);
      const existing = await deps.store.find(appId, name);
      if (existing === null && (await deps.store.count(appId)) >= MAX_SECRETS) {
        throw new InvalidInputError(`App ${appId} already has ${MAX_SECRETS} secrets: delete one first`);
      }
      await deps.store.put(appId, name, sealSecret(deps.key, [appId, name], value));
      changed({ appId, name, kind: 'set' });
    },
    async delete(appId, name) {
      requireSecretName(name);
      if (!(await deps.store.remove(appId, name))) {
        throw new NotFoundError(`App ${appId} has no secret named ${name}`);
      }
      changed({ appId, name, kind: 'deleted' });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async verifyKey(appId) {
      const rows = await deps.store.list(appId);
      for (const row of rows) open(appId, row.name, row.sealed);
      return rows.length;
    },
  };
}
