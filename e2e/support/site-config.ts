import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './server-process';

interface ShippedConfig {
  coinName: string;
  ticker: string;
  contractAddress: string;
  launchpadUrl: string;
  xUrl: string;
  telegramUrl: string;
  dexscreenerUrl: string;
  appId: string;
}

/** shippedConfig is the site config the built site was made from (tests build with the default file). */
export const shippedConfig = JSON.parse(
  readFileSync(join(REPO_ROOT, 'site.config.json'), 'utf8'),
) as ShippedConfig;
