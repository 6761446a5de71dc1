// The Node-only half of the page contract (page-contract.ts holds the browser-safe half): the files the site
// build writes for the server, build-info.json's shape, and the site-config hash that tells the server
// whether the pages were built from the config it runs with.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { SiteConfig } from '../config/site-config-schema';
import { HERO_URL_PLACEHOLDER } from './page-contract';

/** BUILT_PAGES names the HTML files the build writes and the server fills in and serves. */
export const BUILT_PAGES = { home: 'index.html', notFound: '404.html', login: 'login.html' } as const;
/** CONSOLE_DIR is the build's folder for the operator console, served at `/_/` (CONSOLE_PAGE its page). */
export const CONSOLE_DIR = '_';
export const CONSOLE_PAGE = 'console.html';
/** BUILD_INFO_FILE is written next to the pages; the server reads it once and never serves it. */
export const BUILD_INFO_FILE = 'build-info.json';

export const BuildInfoSchema = z.object({
  /** configHash is siteConfigHash() of the config the pages were built from. */
  configHash: z.string(),
  /** heroPrompt is the prompt whose stored image the server puts into the hero. */
  heroPrompt: z.string().min(1),
  /** hero holds the hero slot's two renderings: `generating` is in index.html, `ready` replaces it. */
  hero: z.object({ generating: z.string().min(1), ready: z.string().includes(HERO_URL_PLACEHOLDER) }),
  /**
   * market holds each market view's renderings (the hero tile, the How to Buy strip): `placeholder` is in
   * index.html, `live` (with marketToken() stand-ins) replaces it when the server has figures. Older builds
   * lack it: their pages keep the placeholder.
   */
  market: z.array(z.object({ placeholder: z.string().min(1), live: z.string().min(1) })).optional(),
});

export type BuildInfo = z.infer<typeof BuildInfoSchema>;

/** siteConfigHash fingerprints a validated site config; the build stores it and the server compares it. */
export function siteConfigHash(config: SiteConfig): string {
  return createHash('sha256').update(JSON.stringify(config)).digest('hex');
}
