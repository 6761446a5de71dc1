import { escapeHtml } from './html-escape';
import { serializeJsonForScript } from './json-script';
import { BOOT_MARKER, HERO_URL_PLACEHOLDER, PATH_PLACEHOLDER, type BuildInfo } from './site-bundle';

/** BootData is what the page script reads from `#app-boot` before its first request. */
export interface BootData {
  appId: string;
  publicSettings: { id: string; public_settings: string } | null;
  heroImageUrl: string | null;
}

/** bootScript renders the boot data as a JSON script element. */
export function bootScript(data: BootData): string {
  return `<script id="app-boot" type="application/json">${serializeJsonForScript(data)}</script>`;
}

/**
 * renderHomePage fills the boot marker and, when the hero image exists, swaps the hero's generating
 * fragment for its ready fragment pointing at the image.
 */
export function renderHomePage(html: string, data: BootData, buildInfo: BuildInfo | null): string {
  let page = html;
  if (buildInfo && data.heroImageUrl) {
    const ready = buildInfo.hero.ready.split(HERO_URL_PLACEHOLDER).join(escapeHtml(data.heroImageUrl));
    page = page.replace(buildInfo.hero.generating, () => ready);
  }
  // A replacer function keeps `$` sequences in the JSON from being read as replacement patterns.
  return page.replace(BOOT_MARKER, () => bootScript(data));
}

/** renderNotFoundPage fills the boot marker and every requested-path placeholder (escaped here). */
export function renderNotFoundPage(html: string, data: BootData, requestedPath: string): string {
  return html
    .split(PATH_PLACEHOLDER)
    .join(escapeHtml(requestedPath))
    .replace(BOOT_MARKER, () => bootScript(data));
}

/** renderLoginPage fills the sign-in page's boot marker (the app id it signs in to). */
export function renderLoginPage(html: string, data: BootData): string {
  return html.replace(BOOT_MARKER, () => bootScript(data));
}
