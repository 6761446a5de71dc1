import { describe, expect, it } from 'vitest';
import { callHeaders } from './call-headers';

describe('callHeaders', () => {
  it('drops every visitor Base44-* and X-Data-Env header and hop-by-hop ones, and sets the platform’s', () => {
    const headers = callHeaders(
      {
        authorization: 'Bearer user',
        'base44-app-id': 'evil',
        'base44-api-url': 'http://evil.example',
        'base44-service-authorization': 'Bearer forged',
        'base44-state': 'x',
        'base44-functions-version': 'v2',
        'x-data-env': 'dev',
        'x-app-id': 'evil',
        connection: 'keep-alive',
        host: 'example.com',
        'content-type': 'application/json',
      },
      { appId: 'app', apiUrl: 'http://127.0.0.44:1234', serviceToken: 'minted' },
    );
    expect(headers).toEqual({
      authorization: 'Bearer user',
      'content-type': 'application/json',
      'base44-app-id': 'app',
      'base44-api-url': 'http://127.0.0.44:1234',
      'base44-service-authorization': 'Bearer minted',
      'base44-functions-version': 'v2',
    });
  });
});
