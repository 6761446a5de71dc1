// The contract between the built site and the server that serves it: the markers the build leaves in the
// pages, the boot data the server writes into them and the page script reads, and how a requested path is
// named on the 404 page. The site build, the page scripts and the server all import this file, so neither
// side can change it alone. Browser-safe on purpose (page scripts import it); build-info.ts holds the
// Node-only half.

/** BOOT_MARKER is the comment in each built page's `<head>` that the server replaces with the boot script. */
export const BOOT_MARKER = '<!--app-boot-->';
/** HTML_MARKER is the comment in `#root` that the build replaces with the prerendered page. */
export const HTML_MARKER = '<!--app-html-->';
/** HEAD_MARKER is the comment in `<head>` that the Vite build replaces with the page's head tags. */
export const HEAD_MARKER = '<!--app-head-->';
/** PATH_PLACEHOLDER is rendered into 404.html at build time and replaced by the server with the escaped path. */
export const PATH_PLACEHOLDER = '__APP_REQUESTED_PATH__';
/** HERO_URL_PLACEHOLDER stands for the image URL in the hero's "ready" fragment (build-info.json). */
export const HERO_URL_PLACEHOLDER = '__APP_HERO_URL__';
/** BOOT_SCRIPT_ID is the id of the `<script type="application/json">` holding the boot data. */
export const BOOT_SCRIPT_ID = 'app-boot';

/** PublicSettings is what `GET /api/apps/public/prod/public-settings/by-id/:appId` answers. */
export interface PublicSettings {
  id: string;
  public_settings: string;
}

/**
 * SIGN_IN_PROVIDERS are the external sign-in providers a Base44 app may enable (`auth/config.jsonc`), in the
 * order the sign-in page shows their buttons; `sso` is the app's own OpenID Connect provider.
 */
export const SIGN_IN_PROVIDERS = ['google', 'microsoft', 'github', 'facebook', 'apple', 'sso'] as const;
export type SignInProviderId = (typeof SIGN_IN_PROVIDERS)[number];

/** SSO_NAME_MAX_LENGTH bounds the SSO provider's name the page shows ("Continue with Okta"). */
export const SSO_NAME_MAX_LENGTH = 60;

/**
 * BootData is what the server writes into every page it serves and the page script reads before its first
 * request. The server always knows the app id; a page opened without a server (vite dev) reads null.
 */
export interface BootData {
  appId: string | null;
  publicSettings: PublicSettings | null;
  heroImageUrl: string | null;
  /**
   * hostedAppName is set on the sign-in page when the server hosts another app than this site (SITE_DIST
   * holds that app's build): the page then shows that app's name in a neutral look (`data-look="neutral"`).
   */
  hostedAppName?: string;
  /**
   * returnOrigins are the other origins (the server's CORS_ORIGINS: front ends served elsewhere) the
   * sign-in page may send the browser back to with its token; set on the sign-in page only.
   */
  returnOrigins?: string[];
  /**
   * signInProviders are the external providers the app enables (none: the page is email and password only);
   * set on the sign-in page only, which shows a "Continue with …" button for each.
   */
  signInProviders?: SignInProviderId[];
  /** ssoName names the SSO provider on its button (the app secret `sso_name`); absent: "single sign-on". */
  ssoName?: string;
}

/** NEUTRAL_LOOK is the `<html data-look>` value of a hosted app's sign-in page (login.css styles it). */
export const NEUTRAL_LOOK = 'neutral';

/** NO_BOOT_DATA is what a page without (or with a malformed) boot script knows. */
export const NO_BOOT_DATA: BootData = { appId: null, publicSettings: null, heroImageUrl: null };

/**
 * serializeJsonForScript writes value as JSON that is safe inside an HTML `<script>` element.
 * `<` becomes `\u003c` so no `</script>` or `<!--` can close or confuse the element, and U+2028/U+2029
 * are escaped because older JavaScript parsers treat them as line terminators.
 */
export function serializeJsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** bootScript renders the boot data as the JSON script element the page script reads. */
export function bootScript(data: BootData): string {
  return `<script id="${BOOT_SCRIPT_ID}" type="application/json">${serializeJsonForScript(data)}</script>`;
}

/** signInChoicesOf keeps the known providers (once each, in SIGN_IN_PROVIDERS order) and a sane SSO name. */
function signInChoicesOf(raw: Partial<BootData>): Pick<BootData, 'signInProviders' | 'ssoName'> {
  const listed: unknown[] = Array.isArray(raw.signInProviders) ? raw.signInProviders : [];
  const providers = SIGN_IN_PROVIDERS.filter((provider) => listed.includes(provider));
  if (providers.length === 0) return {};
  const ssoName = typeof raw.ssoName === 'string' ? raw.ssoName.trim() : '';
  return {
    signInProviders: providers,
    ...(ssoName && ssoName.length <= SSO_NAME_MAX_LENGTH ? { ssoName } : {}),
  };
}

/** parseBootData reads the boot script's text; a missing or malformed one means "unknown" (NO_BOOT_DATA). */
export function parseBootData(text: string | null | undefined): BootData {
  if (!text) return NO_BOOT_DATA;
  try {
    const raw = JSON.parse(text) as Partial<BootData> | null;
    if (typeof raw !== 'object' || raw === null) return NO_BOOT_DATA;
    const settings = raw.publicSettings;
    return {
      appId: typeof raw.appId === 'string' ? raw.appId : null,
      publicSettings:
        settings && typeof settings.id === 'string' && typeof settings.public_settings === 'string'
          ? { id: settings.id, public_settings: settings.public_settings }
          : null,
      heroImageUrl: typeof raw.heroImageUrl === 'string' ? raw.heroImageUrl : null,
      ...(typeof raw.hostedAppName === 'string' && raw.hostedAppName
        ? { hostedAppName: raw.hostedAppName }
        : {}),
      ...(Array.isArray(raw.returnOrigins) && raw.returnOrigins.length > 0
        ? { returnOrigins: raw.returnOrigins.filter((origin) => typeof origin === 'string') }
        : {}),
      ...signInChoicesOf(raw),
    };
  } catch {
    return NO_BOOT_DATA;
  }
}

/**
 * requestedPathLabel is how the 404 page names a request URL or pathname: the path without its leading
 * slashes, query or fragment, percent-decoded where possible, e.g. `/no/such?x=1` → `no/such`. The server
 * renders it into 404.html and the page script shows the same text after a client-side navigation. The
 * result is raw text: escape it before use in HTML.
 */
export function requestedPathLabel(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const trimmed = path.replace(/^\/+/, '');
  try {
    return decodeURIComponent(trimmed);
  } catch {
    // NB: a malformed escape such as `%E0%A4%A` is shown as sent rather than failing the page.
    return trimmed;
  }
}
