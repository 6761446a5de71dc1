// Sign-in with Microsoft (Entra ID, personal accounts) over OpenID Connect. A shared tenant (`common`,
// `organizations`, `consumers`) publishes the issuer as the template
// `https://login.microsoftonline.com/{tenantid}/v2.0`: each ID token's `iss` must be that template with the
// token's own `tid`. openid-client 6 applies exactly that rule when it discovers a login.microsoftonline.com
// issuer by its issuer URL (not by a `.well-known` URL), so the discovery URL is given in that form.
import type * as client from 'openid-client';
import { NotConfiguredError } from '../../lib/errors';
import {
  claimedVerified,
  requireSecret,
  secretUrl,
  type Discoveries,
  type OidcOptions,
  type ReadSecret,
} from './oidc-client';

/** MICROSOFT_LOGIN is the origin openid-client recognises as Entra ID. */
export const MICROSOFT_LOGIN = 'https://login.microsoftonline.com';
/** MICROSOFT_SCOPE asks for the ID token, the email and the name (and a refresh token). */
export const MICROSOFT_SCOPE = 'openid email profile offline_access';
const WELL_KNOWN = '/.well-known/openid-configuration';

/**
 * microsoftDiscoveryUrl is where Microsoft's discovery document is read for tenant, or the app secret
 * `microsoft_oauth_discovery_url`. On login.microsoftonline.com it is the issuer URL (the `.well-known`
 * suffix dropped: the same document), so openid-client checks each token's `iss` against its `tid`.
 */
export function microsoftDiscoveryUrl(tenant: string, override?: string): URL {
  if (override) {
    const url = secretUrl('microsoft_oauth_discovery_url', override);
    if (url.origin === MICROSOFT_LOGIN && url.pathname.endsWith(WELL_KNOWN)) {
      url.pathname = url.pathname.slice(0, -WELL_KNOWN.length);
    }
    return url;
  }
  // A GUID, a verified domain, or one of the shared tenants: never a path or a query.
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/.test(tenant)) {
    throw new NotConfiguredError(
      'The app secret microsoft_oauth_tenant_id must be a tenant id, a domain, common, organizations or consumers',
    );
  }
  return new URL(`${MICROSOFT_LOGIN}/${tenant}/v2.0`);
}

/**
 * microsoftEmailVerified says whether Microsoft vouches for the email: `email_verified`, or its optional
 * claim `xms_edov` (the email's domain is verified by the tenant). Microsoft's `email` is otherwise an
 * attribute a tenant administrator (or, for some account types, the person) can set to any address, so
 * without either claim it is unverified: a new account is made, an existing account is not taken over.
 */
export function microsoftEmailVerified(claims: Record<string, unknown>): boolean {
  const edov = claims.xms_edov;
  return claimedVerified(claims) || edov === true || edov === 'true' || edov === 1 || edov === '1';
}

/** MICROSOFT_OPTIONS are Microsoft's departures from plain OpenID Connect. */
export const MICROSOFT_OPTIONS: OidcOptions = { emailVerified: microsoftEmailVerified };

/** microsoftConfiguration discovers Microsoft for the app's tenant and credentials. */
export async function microsoftConfiguration(
  secret: ReadSecret,
  discoveries: Discoveries,
): Promise<client.Configuration> {
  const need = requireSecret(secret);
  const clientId = await need('microsoft_oauth_client_id');
  const clientSecret = await need('microsoft_oauth_client_secret');
  const tenant = (await secret('microsoft_oauth_tenant_id'))?.trim() || 'common';
  const url = microsoftDiscoveryUrl(tenant, await secret('microsoft_oauth_discovery_url'));
  const config = await discoveries.discover(url, clientId, clientSecret);
  // A template issuer read from anywhere else would match no token: say so rather than fail every sign-in.
  if (config.serverMetadata().issuer.includes('{tenantid}') && url.origin !== MICROSOFT_LOGIN) {
    throw new NotConfiguredError(
      `microsoft_oauth_discovery_url: a discovery document with a {tenantid} issuer is only accepted from ${MICROSOFT_LOGIN}`,
    );
  }
  return config;
}
