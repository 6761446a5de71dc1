// Microsoft's shared tenants publish the issuer as a `{tenantid}` template: an ID token is accepted when its
// `iss` is the template with its own `tid`, refused otherwise (openid-client's rule, reached by discovering
// the issuer URL). Also where the document is read from and when Microsoft's email counts as verified.
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { NotConfiguredError, UnauthorizedError } from '../../lib/errors';
import {
  MICROSOFT_LOGIN,
  MICROSOFT_OPTIONS,
  MICROSOFT_SCOPE,
  microsoftConfiguration,
  microsoftDiscoveryUrl,
  microsoftEmailVerified,
} from './microsoft-issuer';
import { oidcProtocol } from './oidc-client';

const TEMPLATE = `${MICROSOFT_LOGIN}/{tenantid}/v2.0`;
const TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';
const CLIENT_ID = 'ms-client';

/** microsoft fakes login.microsoftonline.com's `common` discovery, token endpoint and keys. */
async function microsoft(claims: Record<string, unknown>) {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const now = Math.floor(Date.now() / 1000);
  const idToken = await new SignJWT({ tid: TENANT, nonce: 'n1', email: 'ada@contoso.example', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(String(claims.iss ?? `${MICROSOFT_LOGIN}/${TENANT}/v2.0`))
    .setAudience(CLIENT_ID)
    .setSubject('user-1')
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(privateKey);
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  const fetched: string[] = [];
  const fake: client.CustomFetch = async (url) => {
    fetched.push(url);
    if (url.endsWith('/.well-known/openid-configuration')) {
      return json({
        issuer: TEMPLATE,
        authorization_endpoint: `${MICROSOFT_LOGIN}/common/oauth2/v2.0/authorize`,
        token_endpoint: `${MICROSOFT_LOGIN}/common/oauth2/v2.0/token`,
        jwks_uri: `${MICROSOFT_LOGIN}/common/discovery/v2.0/keys`,
        response_types_supported: ['code'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.endsWith('/token'))
      return json({ access_token: 'at', token_type: 'Bearer', expires_in: 3600, id_token: idToken });
    return json({ keys: [jwk] });
  };
  const config = await client.discovery(microsoftDiscoveryUrl('common'), CLIENT_ID, 'secret', undefined, {
    [client.customFetch]: fake,
  });
  const exchange = () =>
    oidcProtocol(config, MICROSOFT_SCOPE, MICROSOFT_OPTIONS).exchange({
      callbackUrl: new URL('https://app.example/api/apps/auth/callback?code=c1&state=s1'),
      state: 's1',
      nonce: 'n1',
      codeVerifier: 'v'.repeat(43),
    });
  return { exchange, fetched };
}

describe('Microsoft shared-tenant issuer', () => {
  it('accepts an ID token whose iss is the template with its own tid', async () => {
    const { exchange, fetched } = await microsoft({ xms_edov: true });
    const done = await exchange();
    expect(done.identity).toMatchObject({ email: 'ada@contoso.example', emailVerified: true });
    expect(fetched[0]).toBe(`${MICROSOFT_LOGIN}/common/v2.0/.well-known/openid-configuration`);
  });

  it('refuses an ID token issued by another tenant than its tid says', async () => {
    const { exchange } = await microsoft({
      iss: `${MICROSOFT_LOGIN}/00000000-0000-0000-0000-000000000000/v2.0`,
    });
    await expect(exchange()).rejects.toThrow(UnauthorizedError);
    await expect(exchange()).rejects.toThrow(/JWT_CLAIM_COMPARISON/);
  });

  it('refuses the template itself as an issuer', async () => {
    const { exchange } = await microsoft({ iss: TEMPLATE });
    await expect(exchange()).rejects.toThrow(UnauthorizedError);
    await expect(exchange()).rejects.toThrow(/JWT_CLAIM_COMPARISON/);
  });
});

describe('microsoftDiscoveryUrl', () => {
  it('discovers the tenant by its issuer URL (openid-client applies the tid rule then)', () => {
    expect(microsoftDiscoveryUrl('common').href).toBe(`${MICROSOFT_LOGIN}/common/v2.0`);
    expect(microsoftDiscoveryUrl('contoso.onmicrosoft.com').href).toBe(
      `${MICROSOFT_LOGIN}/contoso.onmicrosoft.com/v2.0`,
    );
    expect(() => microsoftDiscoveryUrl('a/../b')).toThrow(NotConfiguredError);
    expect(() => microsoftDiscoveryUrl('x?y')).toThrow(NotConfiguredError);
  });

  it('takes microsoft_oauth_discovery_url, as an issuer URL on Microsoft and as given elsewhere', () => {
    expect(
      microsoftDiscoveryUrl(
        'common',
        `${MICROSOFT_LOGIN}/organizations/v2.0/.well-known/openid-configuration`,
      ).href,
    ).toBe(`${MICROSOFT_LOGIN}/organizations/v2.0`);
    const test = 'http://127.0.0.1:4000/.well-known/openid-configuration';
    expect(microsoftDiscoveryUrl('common', test).href).toBe(test);
    expect(() => microsoftDiscoveryUrl('common', 'http://proxy.example/x')).toThrow(NotConfiguredError);
  });

  it('refuses a {tenantid} issuer read from anywhere but Microsoft (it would match no token)', async () => {
    const secrets: Record<string, string> = {
      microsoft_oauth_client_id: 'id',
      microsoft_oauth_client_secret: 'secret',
      microsoft_oauth_discovery_url: 'https://proxy.example/.well-known/openid-configuration',
    };
    const discoveries = {
      discover: () =>
        Promise.resolve(
          new client.Configuration({ issuer: 'https://proxy.example/{tenantid}/v2.0' }, 'id', 'secret'),
        ),
    };
    await expect(
      microsoftConfiguration((name) => Promise.resolve(secrets[name]), discoveries),
    ).rejects.toThrow(/only accepted from/);
  });
});

describe('microsoftEmailVerified', () => {
  it('is true only when Microsoft says so: email_verified or xms_edov', () => {
    expect(microsoftEmailVerified({ email: 'a@b.c' })).toBe(false);
    expect(microsoftEmailVerified({ email_verified: true })).toBe(true);
    expect(microsoftEmailVerified({ xms_edov: true })).toBe(true);
    expect(microsoftEmailVerified({ xms_edov: '1' })).toBe(true);
    expect(microsoftEmailVerified({ xms_edov: false })).toBe(false);
    expect(microsoftEmailVerified({ email_verified: 'false', xms_edov: 0 })).toBe(false);
  });
});
