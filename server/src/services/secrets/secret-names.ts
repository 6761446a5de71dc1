import { InvalidInputError } from '../../lib/errors';
import { SECRET_NAME } from '../../schemas/secrets';

// Secret names become environment variable names of functions, spelled as real apps name them
// (RESEND_API_KEY) or as the Base44 CLI names credentials (google_oauth_client_secret); a few names the functions runtime sets itself are reserved.
/** RESERVED_PREFIXES are names the functions runtime sets itself; a secret may not shadow them. */
const RESERVED_PREFIXES = ['DENO_', 'B44_', 'BASE44_', 'NPM_CONFIG_', 'LD_'];
const RESERVED_NAMES = new Set(['PATH', 'HOME', 'NO_COLOR', 'NODE_OPTIONS']);

/** secretNameProblem returns why name is not a valid secret name, or null. */
export function secretNameProblem(name: string): string | null {
  if (!SECRET_NAME.test(name)) {
    return `Secret name "${name.slice(0, 70)}" is not valid: use 1-64 letters, digits and underscores, not starting with a digit (e.g. RESEND_API_KEY or google_oauth_client_secret)`;
  }
  // Compared in upper case: `path` would not shadow PATH, but a name that reads like one confuses.
  const upper = name.toUpperCase();
  const prefix = RESERVED_PREFIXES.find((reserved) => upper.startsWith(reserved));
  if (prefix || RESERVED_NAMES.has(upper)) {
    return `Secret name "${name}" is reserved for the functions runtime (${prefix ? `names starting with ${prefix}` : name})`;
  }
  return null;
}

/** requireSecretName throws InvalidInputError unless name is a valid secret name. */
export function requireSecretName(name: string): string {
  const problem = secretNameProblem(name);
  if (problem) throw new InvalidInputError(problem);
  return name;
}
