// URL parameters the app shell understands, persisted in localStorage under `base44_<name>` like the
// Base44 template does. One deliberate difference: `server_url` is only honoured for this page's own
// origin or an origin the site config allows, so a crafted link cannot send the visitor's token elsewhere.

export interface AppParams {
  appId: string | null;
  serverUrl: string;
  token: string | null;
  fromUrl: string | null;
  functionsVersion: string | null;
}

export interface AppParamsEnv {
  location: Pick<Location, 'href' | 'origin'>;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  history: Pick<History, 'replaceState' | 'state'> | null;
  title: string;
  defaultAppId: string | null;
  allowedServerOrigins: readonly string[];
}

const storageKey = (name: string) => `base44_${name}`;

function safeStorage(
  storage: AppParamsEnv['storage'],
  action: (store: NonNullable<AppParamsEnv['storage']>) => void,
) {
  if (!storage) return;
  try {
    action(storage);
  } catch (error) {
    console.error('Failed to save/remove token from localStorage', error);
  }
}

function readStored(storage: AppParamsEnv['storage'], name: string): string | null {
  try {
    return storage?.getItem(storageKey(name)) ?? null;
  } catch {
    return null;
  }
}

/**
 * resolveParam applies the template's precedence: a non-empty URL value wins and is stored; else a truthy
 * default is stored and used; else the stored value; else null.
 */
function resolveParam(
  env: AppParamsEnv,
  url: URL,
  name: string,
  defaultValue: string | null,
  accept: (value: string) => boolean = () => true,
): string | null {
  const fromUrl = url.searchParams.get(name);
  if (fromUrl && accept(fromUrl)) {
    safeStorage(env.storage, (store) => store.setItem(storageKey(name), fromUrl));
    return fromUrl;
  }
  if (defaultValue) {
    safeStorage(env.storage, (store) => store.setItem(storageKey(name), defaultValue));
    return defaultValue;
  }
  const stored = readStored(env.storage, name);
  return stored && accept(stored) ? stored : null;
}

/** isTrustedServerUrl reports whether a server URL is this page's origin or one the config allows. */
export function isTrustedServerUrl(value: string, pageOrigin: string, allowed: readonly string[]): boolean {
  let origin: string;
  try {
    const url = new URL(value, pageOrigin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    origin = url.origin;
  } catch {
    return false;
  }
  return origin === pageOrigin || allowed.includes(origin);
}

/**
 * readAppParams resolves the shell's URL parameters once, storing them, and strips `access_token` from the
 * address bar immediately so it never appears in a URL reported to a parent window or a referrer.
 */
export function readAppParams(env: AppParamsEnv): AppParams {
  const url = new URL(env.location.href);
  const trusted = (value: string) => isTrustedServerUrl(value, env.location.origin, env.allowedServerOrigins);

  const appId = resolveParam(env, url, 'app_id', env.defaultAppId);
  const serverParam = resolveParam(env, url, 'server_url', null, trusted);
  const token = resolveParam(env, url, 'access_token', null);
  let href = env.location.href;
  if (url.searchParams.has('access_token')) {
    url.searchParams.delete('access_token');
    const query = url.searchParams.toString();
    const cleaned = `${url.pathname}${query ? `?${query}` : ''}${url.hash}`;
    env.history?.replaceState(env.history.state, env.title, cleaned);
    href = new URL(cleaned, env.location.origin).href;
  }
  const fromUrl = resolveParam(env, url, 'from_url', href);
  const functionsVersion = resolveParam(env, url, 'functions_version', null);

  const serverUrl = serverParam ? new URL(serverParam, env.location.origin).origin : '';
  return {
    appId,
    serverUrl: serverUrl === env.location.origin ? '' : serverUrl,
    token,
    fromUrl,
    functionsVersion,
  };
}
