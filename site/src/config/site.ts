import type { SiteConfig } from './site-config-schema';

declare const __SITE_CONFIG__: SiteConfig;

/** siteConfig is the validated site config, baked in at build time by vite.config.ts. */
export const siteConfig: SiteConfig = __SITE_CONFIG__;
