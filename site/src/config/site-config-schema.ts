import { readFileSync } from 'node:fs';
import bs58 from 'bs58';
import { z } from 'zod';

import { PLACEHOLDER_CONTRACT_ADDRESS } from './placeholder';

export { PLACEHOLDER_CONTRACT_ADDRESS };

const solanaAddress = z
  .string()
  .trim()
  .refine(isSolanaAddress, 'must be a base58 Solana address (32 bytes, 32–44 characters)');

const httpsUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const optionalUrl = z.union([z.literal(''), httpsUrl]).default('');

export const SiteConfigSchema = z
  .object({
    coinName: z.string().trim().min(1).max(32),
    ticker: z
      .string()
      .trim()
      .regex(/^[A-Z0-9]{2,10}$/, 'must be 2–10 capital letters or digits'),
    contractAddress: solanaAddress,
    launchpadUrl: httpsUrl,
    xUrl: httpsUrl,
    telegramUrl: optionalUrl,
    dexscreenerUrl: optionalUrl,
    appId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "_" or "-"'),
    siteUrl: httpsUrl.transform((url) => url.replace(/\/+$/, '')),
    allowedServerUrls: z.array(httpsUrl.transform((url) => new URL(url).origin)).default([]),
  })
  .strict();

export type SiteConfig = z.infer<typeof SiteConfigSchema>;

/** ENV_OVERRIDES maps each config field to the environment variable that overrides it. */
export const ENV_OVERRIDES = {
  coinName: 'SITE_COIN_NAME',
  ticker: 'SITE_TICKER',
  contractAddress: 'SITE_CONTRACT_ADDRESS',
  launchpadUrl: 'SITE_LAUNCHPAD_URL',
  xUrl: 'SITE_X_URL',
  telegramUrl: 'SITE_TELEGRAM_URL',
  dexscreenerUrl: 'SITE_DEXSCREENER_URL',
  appId: 'SITE_APP_ID',
  siteUrl: 'SITE_URL',
  allowedServerUrls: 'SITE_ALLOWED_SERVER_URLS',
} as const satisfies Record<keyof SiteConfig, string>;

export class SiteConfigError extends Error {
  override name = 'SiteConfigError';
}

/** isSolanaAddress reports whether value is base58 that decodes to a 32-byte public key. */
export function isSolanaAddress(value: string): boolean {
  if (value.length < 32 || value.length > 44) return false;
  try {
    return bs58.decode(value).length === 32;
  } catch {
    return false;
  }
}

/**
 * parseSiteConfig validates a raw config object with environment overrides applied on top.
 * It throws a SiteConfigError naming every bad field (and the variable that set it, if any).
 */
export function parseSiteConfig(raw: unknown, env: NodeJS.ProcessEnv = {}): SiteConfig {
  const base = typeof raw === 'object' && raw !== null ? { ...(raw as Record<string, unknown>) } : {};
  delete base.$comment;
  for (const [field, variable] of Object.entries(ENV_OVERRIDES)) {
    const value = env[variable];
    if (value === undefined) continue;
    base[field] =
      field === 'allowedServerUrls'
        ? value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean)
        : value;
  }
  const result = SiteConfigSchema.safeParse(base);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const field = issue.path.join('.') || '(root)';
    const variable = ENV_OVERRIDES[String(issue.path[0]) as keyof SiteConfig];
    const source = variable && env[variable] !== undefined ? ` (from ${variable})` : '';
    return `  - ${field}${source}: ${issue.message}`;
  });
  return fail(`Invalid site config:\n${lines.join('\n')}`);
}

/** loadSiteConfig reads the JSON config file (SITE_CONFIG or the given default path) and applies env overrides. */
export function loadSiteConfig(defaultPath: string, env: NodeJS.ProcessEnv = process.env): SiteConfig {
  const path = env.SITE_CONFIG ?? defaultPath;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return fail(`Cannot read the site config at ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return fail(`The site config at ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseSiteConfig(raw, env);
}

/** siteConfigWarnings lists what an operator should fix before going live. */
export function siteConfigWarnings(config: SiteConfig): string[] {
  const warnings: string[] = [];
  if (config.contractAddress === PLACEHOLDER_CONTRACT_ADDRESS) {
    warnings.push(
      'contractAddress is the shipped PLACEHOLDER: set SITE_CONTRACT_ADDRESS or edit site.config.json before launch.',
    );
  }
  if (new URL(config.siteUrl).hostname.endsWith('.example')) {
    warnings.push(
      'siteUrl is the example domain: set SITE_URL to the public address for canonical and share tags.',
    );
  }
  return warnings;
}

function fail(message: string): never {
  throw new SiteConfigError(message);
}
