// @vitest-environment node
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENV_OVERRIDES,
  PLACEHOLDER_CONTRACT_ADDRESS,
  SiteConfigError,
  isSolanaAddress,
  loadSiteConfig,
  parseSiteConfig,
  siteConfigWarnings,
} from './site-config-schema';
import type { SiteConfig } from './site-config-schema';

const SHIPPED_PATH = resolve(import.meta.dirname, '../../../site.config.json');
const REAL_ADDRESS = 'So11111111111111111111111111111111111111112';

const VALID_RAW = {
  coinName: '$QUEEN',
  ticker: 'QUEEN',
  contractAddress: REAL_ADDRESS,
  launchpadUrl: 'https://pump.fun/coin/x',
  xUrl: 'https://x.com/QueenSolana',
  telegramUrl: '',
  dexscreenerUrl: '',
  appId: 'queen-solana',
  siteUrl: 'https://queensolana.com',
  allowedServerUrls: [],
};

/** errorOf runs fn and returns the SiteConfigError it throws (failing the test if it does not). */
function errorOf(fn: () => unknown): SiteConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SiteConfigError);
    return error as SiteConfigError;
  }
  throw new Error('expected a SiteConfigError, but nothing was thrown');
}

describe('isSolanaAddress', () => {
  it('accepts base58 strings that decode to 32 bytes', () => {
    expect(isSolanaAddress(REAL_ADDRESS)).toBe(true);
    expect(isSolanaAddress(PLACEHOLDER_CONTRACT_ADDRESS)).toBe(true);
    expect(isSolanaAddress('11111111111111111111111111111111')).toBe(true);
  });

  it.each(['0', 'O', 'I', 'l'])('rejects the non-base58 character %s', (bad) => {
    const address = `${REAL_ADDRESS.slice(0, 10)}${bad}${REAL_ADDRESS.slice(11)}`;
    expect(address).toHaveLength(REAL_ADDRESS.length);
    expect(isSolanaAddress(address)).toBe(false);
  });

  it('rejects strings shorter than 32 or longer than 44 characters', () => {
    expect(isSolanaAddress('1'.repeat(31))).toBe(false);
    expect(isSolanaAddress(`${REAL_ADDRESS}2222`)).toBe(false);
    expect(isSolanaAddress('')).toBe(false);
  });

  it('rejects base58 of a valid length that does not decode to 32 bytes', () => {
    expect(isSolanaAddress('2'.repeat(32))).toBe(false); // 23 bytes
    expect(isSolanaAddress('z'.repeat(44))).toBe(false); // 33 bytes
    expect(isSolanaAddress('1'.repeat(33))).toBe(false); // 33 zero bytes
  });
});

describe('the shipped site.config.json', () => {
  it('is valid', () => {
    const config = loadSiteConfig(SHIPPED_PATH, {});
    expect(config.contractAddress).toBe(PLACEHOLDER_CONTRACT_ADDRESS);
    expect(config.ticker).toMatch(/^[A-Z0-9]{2,10}$/);
    expect(config).not.toHaveProperty('$comment');
  });

  it('warns that it still uses the placeholder address', () => {
    const warnings = siteConfigWarnings(loadSiteConfig(SHIPPED_PATH, {}));
    expect(warnings.some((warning) => warning.startsWith('contractAddress is the shipped PLACEHOLDER'))).toBe(
      true,
    );
  });
});

describe('parseSiteConfig', () => {
  it('returns the validated config, with defaults and normalisation', () => {
    const { telegramUrl: _t, dexscreenerUrl: _d, allowedServerUrls: _a, ...required } = VALID_RAW;
    const config = parseSiteConfig({ ...required, siteUrl: 'https://queensolana.com//', $comment: 'hi' });
    expect(config).toEqual<SiteConfig>({
      ...VALID_RAW,
      siteUrl: 'https://queensolana.com',
      telegramUrl: '',
      dexscreenerUrl: '',
      allowedServerUrls: [],
    });
  });

  it('normalises allowedServerUrls from the file to origins', () => {
    const config = parseSiteConfig({
      ...VALID_RAW,
      allowedServerUrls: ['https://api.example.com/some/path?x=1', 'http://localhost:8080/'],
    });
    expect(config.allowedServerUrls).toEqual(['https://api.example.com', 'http://localhost:8080']);
  });

  it('applies every environment override', () => {
    const other = '11111111111111111111111111111111';
    const env = {
      SITE_COIN_NAME: 'Other Coin',
      SITE_TICKER: 'OTHR2',
      SITE_CONTRACT_ADDRESS: other,
      SITE_LAUNCHPAD_URL: 'https://launch.example.org/c',
      SITE_X_URL: 'https://x.com/other',
      SITE_TELEGRAM_URL: 'https://t.me/other',
      SITE_DEXSCREENER_URL: 'https://dexscreener.com/solana/other',
      SITE_APP_ID: 'other_app-1',
      SITE_URL: 'https://other.example.org/',
      SITE_ALLOWED_SERVER_URLS: ' https://api.other.org/v1 ,http://localhost:3000/x,, ',
    };
    expect(Object.values(ENV_OVERRIDES).sort()).toEqual(Object.keys(env).sort());

    expect(parseSiteConfig(VALID_RAW, env)).toEqual<SiteConfig>({
      coinName: 'Other Coin',
      ticker: 'OTHR2',
      contractAddress: other,
      launchpadUrl: 'https://launch.example.org/c',
      xUrl: 'https://x.com/other',
      telegramUrl: 'https://t.me/other',
      dexscreenerUrl: 'https://dexscreener.com/solana/other',
      appId: 'other_app-1',
      siteUrl: 'https://other.example.org',
      allowedServerUrls: ['https://api.other.org', 'http://localhost:3000'],
    });
  });

  it.each(Object.entries(ENV_OVERRIDES))('the override of %s comes from %s', (field, variable) => {
    const values: Record<string, string> = {
      coinName: 'Env Coin',
      ticker: 'ENV',
      contractAddress: '11111111111111111111111111111111',
      launchpadUrl: 'https://env.example.org/launch',
      xUrl: 'https://x.com/env',
      telegramUrl: 'https://t.me/env',
      dexscreenerUrl: 'https://dexscreener.com/env',
      appId: 'env-app',
      siteUrl: 'https://env.example.org',
      allowedServerUrls: 'https://api.env.org',
    };
    const config = parseSiteConfig(VALID_RAW, { [variable]: values[field] });
    const expected = field === 'allowedServerUrls' ? ['https://api.env.org'] : values[field];
    expect(config[field as keyof SiteConfig]).toEqual(expected);
    expect({ ...config, [field]: undefined }).toEqual({ ...VALID_RAW, [field]: undefined });
  });

  it('an empty SITE_ALLOWED_SERVER_URLS clears the list', () => {
    const config = parseSiteConfig(
      { ...VALID_RAW, allowedServerUrls: ['https://api.example.com'] },
      { SITE_ALLOWED_SERVER_URLS: '' },
    );
    expect(config.allowedServerUrls).toEqual([]);
  });

  it.each([
    ['bad base58 character', `${REAL_ADDRESS.slice(0, -1)}0`],
    ['wrong length', REAL_ADDRESS.slice(0, 20)],
    ['not 32 bytes', 'z'.repeat(44)],
  ])('rejects a contract address with a %s, naming contractAddress', (_label, address) => {
    const error = errorOf(() => parseSiteConfig({ ...VALID_RAW, contractAddress: address }));
    expect(error.message).toContain('Invalid site config:');
    expect(error.message).toContain(
      '  - contractAddress: must be a base58 Solana address (32 bytes, 32–44 characters)',
    );
    expect(error.message).not.toContain('SITE_CONTRACT_ADDRESS');
  });

  it('names SITE_CONTRACT_ADDRESS when the bad address came from the environment', () => {
    const error = errorOf(() => parseSiteConfig(VALID_RAW, { SITE_CONTRACT_ADDRESS: 'OIl0'.repeat(10) }));
    expect(error.message).toContain('  - contractAddress (from SITE_CONTRACT_ADDRESS): must be a base58');
  });

  it('rejects a bad URL naming the field', () => {
    const error = errorOf(() => parseSiteConfig({ ...VALID_RAW, launchpadUrl: 'not a url' }));
    expect(error.message).toMatch(/^ {2}- launchpadUrl: must be an http\(s\) URL$/m);
  });

  it('rejects a non-http URL naming the field and the variable', () => {
    const error = errorOf(() => parseSiteConfig(VALID_RAW, { SITE_X_URL: 'javascript:alert(1)' }));
    expect(error.message).toMatch(/^ {2}- xUrl \(from SITE_X_URL\): must be an http\(s\) URL$/m);
  });

  it('rejects a bad ticker naming the field', () => {
    const error = errorOf(() => parseSiteConfig({ ...VALID_RAW, ticker: 'queen' }));
    expect(error.message).toMatch(/^ {2}- ticker: must be 2–10 capital letters or digits$/m);
  });

  it('rejects an unknown extra field naming it', () => {
    const error = errorOf(() => parseSiteConfig({ ...VALID_RAW, website: 'https://a.example.org' }));
    expect(error.message).toContain('Invalid site config:');
    expect(error.message).toContain('website');
  });

  it('lists every bad field at once', () => {
    const error = errorOf(() =>
      parseSiteConfig({ ...VALID_RAW, ticker: 'x', appId: 'has space', allowedServerUrls: ['ftp://a.b'] }),
    );
    expect(error.message).toMatch(/^ {2}- ticker: /m);
    expect(error.message).toMatch(/^ {2}- appId: /m);
    expect(error.message).toMatch(/^ {2}- allowedServerUrls\.0: must be an http\(s\) URL$/m);
  });

  it('rejects a non-object config', () => {
    const error = errorOf(() => parseSiteConfig(null));
    expect(error.message).toMatch(/^ {2}- coinName: /m);
    expect(error.message).toMatch(/^ {2}- contractAddress: /m);
  });
});

describe('loadSiteConfig', () => {
  let dir = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-config-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the file at SITE_CONFIG instead of the default path and applies env overrides', async () => {
    const path = join(dir, 'custom.json');
    await writeFile(path, JSON.stringify({ ...VALID_RAW, coinName: 'From File' }));
    const config = loadSiteConfig(join(dir, 'missing.json'), { SITE_CONFIG: path, SITE_TICKER: 'ENVT' });
    expect(config.coinName).toBe('From File');
    expect(config.ticker).toBe('ENVT');
  });

  it('gives a clear message for a missing file', () => {
    const path = join(dir, 'does-not-exist.json');
    const error = errorOf(() => loadSiteConfig(path, {}));
    expect(error.message).toContain(`Cannot read the site config at ${path}:`);
    expect(error.message).toContain('ENOENT');
  });

  it('gives a clear message for invalid JSON', async () => {
    const path = join(dir, 'broken.json');
    await writeFile(path, '{ "coinName": ');
    const error = errorOf(() => loadSiteConfig(path, {}));
    expect(error.message).toMatch(
      new RegExp(`^The site config at ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON: `),
    );
  });

  it('reports validation errors from the file', async () => {
    const path = join(dir, 'bad-address.json');
    await writeFile(path, JSON.stringify({ ...VALID_RAW, contractAddress: 'nope' }));
    const error = errorOf(() => loadSiteConfig(path, {}));
    expect(error.message).toMatch(/^ {2}- contractAddress: must be a base58 Solana address/m);
  });
});

describe('siteConfigWarnings', () => {
  it('warns about the placeholder address', () => {
    const warnings = siteConfigWarnings(
      parseSiteConfig({ ...VALID_RAW, contractAddress: PLACEHOLDER_CONTRACT_ADDRESS }),
    );
    expect(warnings).toEqual([
      'contractAddress is the shipped PLACEHOLDER: set SITE_CONTRACT_ADDRESS or edit site.config.json before launch.',
    ]);
  });

  it('gives no warning for a real-looking address on a real domain', () => {
    expect(siteConfigWarnings(parseSiteConfig(VALID_RAW))).toEqual([]);
  });

  it('warns only about the example domain when the address is real', () => {
    const warnings = siteConfigWarnings(parseSiteConfig({ ...VALID_RAW, siteUrl: 'https://queen.example' }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^siteUrl is the example domain/);
    expect(warnings.some((warning) => warning.includes('contractAddress'))).toBe(false);
  });
});
