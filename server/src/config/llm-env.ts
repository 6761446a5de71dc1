import { z } from 'zod';
import { blankAsUndefined, count, milliseconds } from './env-values';

// The LLM provider (any OpenAI-compatible endpoint) and the guards on what calling it may cost. Without
// LLM_PROVIDER_URL no model is reachable (none ships offline): LLM calls answer 503 naming it.

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  // `…/v1/` and `…/v1` are the same base: paths are appended as `/chat/completions`.
  .transform((url) => url.replace(/\/+$/, ''));

const MODEL_NAME = /^[A-Za-z0-9._:/@-]{1,200}$/;

/**
 * parseModelMap reads `app_name=provider_model` pairs separated by commas (or whitespace); null when an
 * entry is malformed.
 */
export function parseModelMap(value: string): Record<string, string> | null {
  const map: Record<string, string> = {};
  for (const entry of value.split(/[\s,]+/).filter(Boolean)) {
    const [name, model, ...rest] = entry.split('=');
    if (rest.length > 0 || !name || !model || !MODEL_NAME.test(name) || !MODEL_NAME.test(model)) return null;
    map[name] = model;
  }
  return map;
}

/** LlmEnvShape lists the LLM provider's environment variables (merged into ServerEnvSchema). */
export const LlmEnvShape = {
  LLM_PROVIDER_URL: z.preprocess(blankAsUndefined, httpUrl.optional()),
  LLM_API_KEY: z.preprocess(blankAsUndefined, z.string().optional()),
  LLM_MODEL: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .regex(MODEL_NAME, 'must be a model name such as gpt-4o-mini or llama3.2')
      .default('gpt-4o-mini'),
  ),
  LLM_MODEL_MAP: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .default('')
      .transform((value, context) => {
        const map = parseModelMap(value);
        if (map !== null) return map;
        context.addIssue({
          code: 'custom',
          message:
            'must list app_model=provider_model pairs separated by commas (e.g. gemini_3_flash=llama3.2,gpt_5=gpt-4o)',
        });
        return z.NEVER;
      }),
  ),
  LLM_TRANSCRIBE_MODEL: z.preprocess(
    blankAsUndefined,
    z.string().regex(MODEL_NAME, 'must be a model name such as whisper-1').default('whisper-1'),
  ),
  LLM_TIMEOUT_MS: milliseconds(60_000),
  LLM_DAILY_TOKEN_BUDGET: count(1_000_000, 1_000_000_000_000),
  /** LLM_SERVICE_RESERVE_PERCENT is the part of the daily budget only the service role may spend (0–90). */
  LLM_SERVICE_RESERVE_PERCENT: z.preprocess(
    blankAsUndefined,
    z.coerce
      .number()
      .int('must be a whole percentage')
      .min(0, 'must be between 0 and 90')
      .max(90, 'must be between 0 and 90')
      .default(20),
  ),
  /** LLM_USER_DAILY_TOKENS is what one user may spend per UTC day (default a tenth of the budget). */
  LLM_USER_DAILY_TOKENS: z.preprocess(blankAsUndefined, z.coerce.number().int().min(1).optional()),
  /** LLM_IP_DAILY_TOKENS is what every caller from one IP may spend per UTC day (default a fifth). */
  LLM_IP_DAILY_TOKENS: z.preprocess(blankAsUndefined, z.coerce.number().int().min(1).optional()),
  LLM_AUDIO_MAX_MB: count(25, 1000),
  WEB_SEARCH_URL: z.preprocess(blankAsUndefined, httpUrl.optional()),
};
