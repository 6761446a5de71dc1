// A connector's OAuth client and endpoints, from app secrets named `<type>_oauth_<setting>`, else the
// family's `<family>_oauth_<setting>` (google, microsoft, slack), else the built-in default. Google and
// Microsoft may name a discovery document instead (`discovery_url`); explicit URLs win over it. Read on each
// use, so a secret set while the server runs takes effect at once.
import { secretUrl, type ReadSecret } from '../auth/oidc-client';
import { builtInProviderOf, type BuiltInProvider } from './connector-providers';

/** ConnectorSettings are what connecting, refreshing and calling need. */
export interface ConnectorSettings {
  type: string;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl?: string | undefined;
  /** apiHosts are `host[:port]` values `callApi` may reach, the first the default. */
  apiHosts: string[];
  /** apiProtocol and apiBasePath come from `api_base_url` when set (https and no path otherwise). */
  apiProtocol: 'https:' | 'http:';
  apiBasePath: string;
  authorizeParams: Record<string, string>;
  tokenAuth: 'basic' | 'body';
}

/** Resolved is the settings, or the secrets still missing (named as the operator should set them). */
export type Resolved = { settings: ConnectorSettings } | { missing: string[] };

/** Discover reads a discovery document's endpoints (cached by the caller). */
export type DiscoverEndpoints = (
  url: string,
) => Promise<{ authorizeUrl?: string; tokenUrl?: string; revokeUrl?: string }>;

/** SETTINGS are the secret suffixes a connector reads. */
const SETTINGS = [
  'client_id',
  'client_secret',
  'authorize_url',
  'token_url',
  'revoke_url',
  'api_base_url',
  'discovery_url',
] as const;
type Setting = (typeof SETTINGS)[number];

/** resolveConnectorSettings reads type's settings from the app's secrets (googleClientId: the auth config's). */
export async function resolveConnectorSettings(
  type: string,
  secret: ReadSecret,
  discover: DiscoverEndpoints,
  googleClientId?: string | undefined,
): Promise<Resolved> {
  const builtIn: BuiltInProvider | undefined = builtInProviderOf(type);
  const family = builtIn?.family;
  const read = async (setting: Setting): Promise<string | undefined> =>
    (await secret(`${type}_oauth_${setting}`)) ??
    (family ? await secret(`${family}_oauth_${setting}`) : undefined);
  // The name to ask the operator for: the family's (one client for all), else the type's own.
  const nameOf = (setting: Setting) => `${family ?? type}_oauth_${setting}`;
  const values = Object.fromEntries(
    await Promise.all(SETTINGS.map(async (setting) => [setting, await read(setting)] as const)),
  ) as Record<Setting, string | undefined>;
  const clientId = values.client_id ?? (family === 'google' ? googleClientId : undefined);

  const discovered =
    values.discovery_url && (family === 'google' || family === 'microsoft')
      ? await discover(values.discovery_url)
      : {};
  const authorizeUrl = values.authorize_url ?? discovered.authorizeUrl ?? builtIn?.authorizeUrl;
  const tokenUrl = values.token_url ?? discovered.tokenUrl ?? builtIn?.tokenUrl;
  const missing = [
    ...(clientId ? [] : [nameOf('client_id')]),
    ...(values.client_secret ? [] : [nameOf('client_secret')]),
    ...(authorizeUrl ? [] : [nameOf('authorize_url')]),
    ...(tokenUrl ? [] : [nameOf('token_url')]),
    ...(builtIn || values.api_base_url ? [] : [nameOf('api_base_url')]),
  ];
  if (missing.length > 0 || !clientId || !values.client_secret || !authorizeUrl || !tokenUrl) {
    return { missing };
  }
  const apiBase = values.api_base_url
    ? secretUrl(`${type}_oauth_api_base_url`, values.api_base_url)
    : undefined;
  return {
    settings: {
      type,
      clientId,
      clientSecret: values.client_secret,
      authorizeUrl,
      tokenUrl,
      revokeUrl: values.revoke_url ?? discovered.revokeUrl ?? builtIn?.revokeUrl,
      // With an API base set, its host is the only one (a proxy, a test double, a self-hosted service).
      apiHosts: apiBase ? [apiBase.host] : [...(builtIn?.apiHosts ?? [])],
      apiProtocol: apiBase?.protocol === 'http:' ? 'http:' : 'https:',
      apiBasePath: apiBase ? apiBase.pathname.replace(/\/+$/, '') : '',
      authorizeParams: { ...builtIn?.authorizeParams },
      tokenAuth: builtIn?.tokenAuth ?? 'basic',
    },
  };
}

/** missingSecretNames lists, for the start-up warning, what type still needs (empty: configured). */
export async function missingSecretNames(
  type: string,
  has: (name: string) => boolean,
  googleClientId?: string | undefined,
): Promise<string[]> {
  const resolved = await resolveConnectorSettings(
    type,
    async (name) => (has(name) ? 'https://set.invalid' : undefined),
    async () => ({ authorizeUrl: 'discovered', tokenUrl: 'discovered' }),
    googleClientId,
  );
  return 'missing' in resolved ? resolved.missing : [];
}
