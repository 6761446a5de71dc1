// The app's sign-in methods: `auth/config.jsonc` (or the `authDir` of `config.jsonc`). A missing file means
// the defaults (email and password on, no provider); an invalid one stops the start naming the file and key.
import { join } from 'node:path';
import { AuthConfigSchema, type AuthConfig } from '../schemas/auth-config';
import { check, MISSING, readJsonc } from './project-files';

/** AUTH_CONFIG_FILE is the file's name in the auth folder. */
export const AUTH_CONFIG_FILE = 'config.jsonc';

/** LoadedAuthConfig is the parsed file (defaults filled in) and where it was read from (absent: defaults). */
export interface LoadedAuthConfig {
  config: AuthConfig;
  file: string | undefined;
}

/** loadAuthConfig reads `<dir>/<authDir>/config.jsonc`, or gives the defaults when there is none. */
export async function loadAuthConfig(
  dir: string,
  authDir: string,
  shown: (file: string) => string,
): Promise<LoadedAuthConfig> {
  const file = join(dir, authDir, AUTH_CONFIG_FILE);
  const json = await readJsonc(file, shown(file), true);
  if (json === MISSING) return { config: AuthConfigSchema.parse({}), file: undefined };
  return { config: check(AuthConfigSchema, json, shown(file)), file: shown(file) };
}
