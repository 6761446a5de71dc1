import { siteConfig } from '../config/site';
import { readAppParams, type AppParams } from './app-params';
import { readBootData, type BootData } from './boot-data';

// Resolved once per page load, in the browser only: at prerender time there is no visitor.
const inBrowser = typeof window !== 'undefined';

/**
 * bootData is what the serving platform told this page (app id, public settings, cached hero). At build
 * time pages are prerendered as an anonymous visitor of a public app sees them.
 */
export const bootData: BootData = inBrowser
  ? readBootData(document)
  : {
      appId: siteConfig.appId,
      publicSettings: { id: siteConfig.appId, public_settings: 'public_without_login' },
      heroImageUrl: null,
    };

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** appParams are the shell's URL parameters (app id, server, token, from_url, functions version). */
export const appParams: AppParams = inBrowser
  ? readAppParams({
      location: window.location,
      storage: safeLocalStorage(),
      history: window.history,
      title: document.title,
      defaultAppId: bootData.appId ?? siteConfig.appId,
      allowedServerOrigins: siteConfig.allowedServerUrls,
    })
  : { appId: siteConfig.appId, serverUrl: '', token: null, fromUrl: null, functionsVersion: null };

/** forgetToken drops a token the server rejected, from memory and from both storage keys the SDK uses. */
export function forgetToken(): void {
  appParams.token = null;
  try {
    window.localStorage.removeItem('base44_access_token');
    window.localStorage.removeItem('token');
  } catch (error) {
    console.error('Failed to save/remove token from localStorage', error);
  }
}
