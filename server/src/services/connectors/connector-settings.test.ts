import { describe, expect, it } from 'vitest';
import { missingSecretNames, resolveConnectorSettings } from './connector-settings';
import { targetUrl, type ConnectorCall } from './connector-calls';

const secretsOf = (values: Record<string, string>) => async (name: string) => values[name];
const noDiscovery = async () => {
  throw new Error('no discovery expected');
};

async function settingsOf(type: string, values: Record<string, string>, googleClientId?: string) {
  const resolved = await resolveConnectorSettings(type, secretsOf(values), noDiscovery, googleClientId);
  if ('missing' in resolved) throw new Error(`missing ${resolved.missing.join(', ')}`);
  return resolved.settings;
}

describe('connector settings', () => {
  it("uses the type's secrets, then the family's, then the built-in defaults", async () => {
    const calendar = await settingsOf('googlecalendar', {
      google_oauth_client_id: 'family-id',
      google_oauth_client_secret: 'family-secret',
      googlecalendar_oauth_client_secret: 'own-secret',
    });
    expect(calendar).toMatchObject({
      clientId: 'family-id',
      clientSecret: 'own-secret',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      apiHosts: ['www.googleapis.com'],
      authorizeParams: { access_type: 'offline', prompt: 'consent' },
      tokenAuth: 'body',
    });
    // Sign-in's `googleOAuthClientId` serves the Google connectors too.
    const gmail = await settingsOf('gmail', { google_oauth_client_secret: 's' }, 'config-id');
    expect(gmail).toMatchObject({
      clientId: 'config-id',
      apiHosts: ['gmail.googleapis.com', 'www.googleapis.com'],
    });
    const outlook = await settingsOf('outlook', {
      microsoft_oauth_client_id: 'm',
      microsoft_oauth_client_secret: 's',
    });
    expect(outlook.apiHosts).toEqual(['graph.microsoft.com']);
  });

  it('reads Google endpoints from a discovery document, explicit URLs winning', async () => {
    const resolved = await resolveConnectorSettings(
      'googledrive',
      secretsOf({
        google_oauth_client_id: 'i',
        google_oauth_client_secret: 's',
        google_oauth_discovery_url: 'https://idp.example/.well-known/openid-configuration',
        google_oauth_token_url: 'https://proxy.example/token',
      }),
      async () => ({ authorizeUrl: 'https://idp.example/auth', tokenUrl: 'https://idp.example/token' }),
    );
    expect(resolved).toMatchObject({
      settings: { authorizeUrl: 'https://idp.example/auth', tokenUrl: 'https://proxy.example/token' },
    });
  });

  it('a generic slug needs every endpoint; the API base sets the only host, scheme and path', async () => {
    expect(await missingSecretNames('crm', () => false)).toEqual([
      'crm_oauth_client_id',
      'crm_oauth_client_secret',
      'crm_oauth_authorize_url',
      'crm_oauth_token_url',
      'crm_oauth_api_base_url',
    ]);
    expect(await missingSecretNames('slack', () => false)).toEqual([
      'slack_oauth_client_id',
      'slack_oauth_client_secret',
    ]);
    const crm = await settingsOf('crm', {
      crm_oauth_client_id: 'i',
      crm_oauth_client_secret: 's',
      crm_oauth_authorize_url: 'https://crm.example/authorize',
      crm_oauth_token_url: 'https://crm.example/token',
      crm_oauth_api_base_url: 'http://localhost:8080/v2/',
    });
    expect(crm).toMatchObject({
      apiHosts: ['localhost:8080'],
      apiProtocol: 'http:',
      apiBasePath: '/v2',
      tokenAuth: 'basic',
    });
  });
});

describe('callApi targets', () => {
  const call = (overrides: Partial<ConnectorCall>): ConnectorCall => ({
    method: 'GET',
    path: '/calendar/v3/calendars',
    query: {},
    headers: {},
    body: null,
    ...overrides,
  });

  it('joins the host, the base path, the path and the query', async () => {
    const settings = await settingsOf('gmail', {
      google_oauth_client_id: 'i',
      google_oauth_client_secret: 's',
    });
    expect(
      targetUrl(settings, call({ path: 'gmail/v1/users/me', query: { q: 'a b', n: [1, 2] } })).href,
    ).toBe('https://gmail.googleapis.com/gmail/v1/users/me?q=a+b&n=1&n=2');
    expect(targetUrl(settings, call({ host: 'WWW.googleapis.com' })).host).toBe('www.googleapis.com');
  });

  it('refuses other hosts and paths that leave the API', async () => {
    const settings = await settingsOf('gmail', {
      google_oauth_client_id: 'i',
      google_oauth_client_secret: 's',
    });
    for (const bad of [
      call({ host: 'evil.example' }),
      call({ path: '//evil.example/x' }),
      call({ path: 'javascript:alert(1)' }),
      call({ path: '/a/../../b' }),
      call({ path: '/a/%2E%2E/b' }),
      call({ path: '/a\\b' }),
      call({ path: '/%E0%A4%A' }),
    ]) {
      expect(() => targetUrl(settings, bad), bad.path).toThrow(/host|path/);
    }
  });
});
