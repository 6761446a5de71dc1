import { z } from 'zod';
import { parseSecretsKey } from '../lib/secret-box';
import { blankAsUndefined } from './env-values';

/** SecretsEnvShape lists the environment variables of app secrets (merged into ServerEnvSchema). */
export const SecretsEnvShape = {
  // The key that encrypts app secrets at rest; unset: generated once into DATA_DIR/secrets.json.
  SECRETS_KEY: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .optional()
      .transform((value, context) => {
        if (value === undefined) return undefined;
        const parsed = parseSecretsKey(value);
        if (typeof parsed === 'string') {
          context.addIssue({ code: 'custom', message: parsed });
          return z.NEVER;
        }
        // Kept as text: the config is plain data; the key is decoded again where it is used.
        return value.trim();
      }),
  ),
};
