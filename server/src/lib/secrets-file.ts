import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSecretsKey, parseSecretsKey } from './secret-box';
import { randomSecret } from './secure-random';

/**
 * ServerSecrets are the signing key of access tokens, the service-role token and the key that encrypts
 * app secrets at rest (with where that key came from, for the start-up report).
 */
export interface ServerSecrets {
  jwtSecret: string;
  serviceToken: string;
  secretsKey: Buffer;
  secretsKeySource: 'SECRETS_KEY' | typeof SECRETS_FILE;
}

/** SECRETS_FILE is the file, inside DATA_DIR, that holds generated secrets (mode 0600). */
export const SECRETS_FILE = 'secrets.json';

/** StoredSecrets is the file's content: each generated value, as text. */
interface StoredSecrets {
  jwtSecret?: string | undefined;
  serviceToken?: string | undefined;
  secretsKey?: string | undefined;
}

async function readStored(path: string): Promise<StoredSecrets> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const record = parsed as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return {
      jwtSecret: text(record.jwtSecret),
      serviceToken: text(record.serviceToken),
      secretsKey: text(record.secretsKey),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

/** keyFrom decodes a key, failing with a message that names where it came from (never the value). */
function keyFrom(text: string, where: string): Buffer {
  const key = parseSecretsKey(text);
  if (typeof key === 'string') throw new Error(`${where}: ${key}`);
  return key;
}

/**
 * loadSecrets returns the configured secrets, generating any missing one once and keeping it in
 * `DATA_DIR/secrets.json` with owner-only permissions. There is never a built-in default.
 */
export async function loadSecrets(
  dataDir: string,
  configured: {
    jwtSecret?: string | undefined;
    serviceToken?: string | undefined;
    secretsKey?: string | undefined;
  },
): Promise<ServerSecrets> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, SECRETS_FILE);
  const stored = await readStored(path);
  const generated: StoredSecrets = { ...stored };
  if (!configured.jwtSecret && !stored.jwtSecret) generated.jwtSecret = randomSecret();
  if (!configured.serviceToken && !stored.serviceToken) generated.serviceToken = randomSecret();
  if (!configured.secretsKey && !stored.secretsKey) generated.secretsKey = generateSecretsKey();
  if (
    generated.jwtSecret !== stored.jwtSecret ||
    generated.serviceToken !== stored.serviceToken ||
    generated.secretsKey !== stored.secretsKey
  ) {
    await writeFile(path, `${JSON.stringify(generated, null, 2)}\n`, { mode: 0o600 });
  }
  // NB: writeFile's mode applies only on creation; tighten an existing file too.
  await chmod(path, 0o600).catch(() => undefined);
  const secretsKey = configured.secretsKey
    ? keyFrom(configured.secretsKey, 'SECRETS_KEY')
    : keyFrom(generated.secretsKey ?? '', `${path} (secretsKey)`);
  return {
    jwtSecret: configured.jwtSecret ?? generated.jwtSecret ?? '',
    serviceToken: configured.serviceToken ?? generated.serviceToken ?? '',
    secretsKey,
    secretsKeySource: configured.secretsKey ? 'SECRETS_KEY' : SECRETS_FILE,
  };
}
