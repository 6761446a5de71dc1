import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomSecret } from './secure-random';

/** ServerSecrets are the signing key of access tokens and the service-role token. */
export interface ServerSecrets {
  jwtSecret: string;
  serviceToken: string;
}

/** SECRETS_FILE is the file, inside DATA_DIR, that holds generated secrets (mode 0600). */
export const SECRETS_FILE = 'secrets.json';

async function readStored(path: string): Promise<Partial<ServerSecrets>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const record = parsed as Record<string, unknown>;
    return {
      jwtSecret: typeof record.jwtSecret === 'string' ? record.jwtSecret : undefined,
      serviceToken: typeof record.serviceToken === 'string' ? record.serviceToken : undefined,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

/**
 * loadSecrets returns the configured secrets, generating any missing one once and keeping it in
 * `DATA_DIR/secrets.json` with owner-only permissions. There is never a built-in default.
 */
export async function loadSecrets(
  dataDir: string,
  configured: { jwtSecret?: string | undefined; serviceToken?: string | undefined },
): Promise<ServerSecrets> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, SECRETS_FILE);
  const stored = await readStored(path);
  const generated: Partial<ServerSecrets> = { ...stored };
  if (!configured.jwtSecret && !stored.jwtSecret) generated.jwtSecret = randomSecret();
  if (!configured.serviceToken && !stored.serviceToken) generated.serviceToken = randomSecret();
  if (generated.jwtSecret !== stored.jwtSecret || generated.serviceToken !== stored.serviceToken) {
    await writeFile(path, `${JSON.stringify(generated, null, 2)}\n`, { mode: 0o600 });
  }
  // NB: writeFile's mode applies only on creation; tighten an existing file too.
  await chmod(path, 0o600).catch(() => undefined);
  return {
    jwtSecret: configured.jwtSecret ?? generated.jwtSecret ?? '',
    serviceToken: configured.serviceToken ?? generated.serviceToken ?? '',
  };
}
