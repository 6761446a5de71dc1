import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl, serializeRequest } from './log-redaction';

describe('redactUrl', () => {
  it('redacts access, reset and invite tokens and file signatures, keeping the rest', () => {
    expect(redactUrl('/trips?access_token=eyJ.abc.def&x=1')).toBe(`/trips?access_token=${REDACTED}&x=1`);
    expect(redactUrl('/login?reset_token=s3cret')).toBe(`/login?reset_token=${REDACTED}`);
    expect(redactUrl('/login?from_url=%2F&invite_token=abc#top')).toBe(
      `/login?from_url=%2F&invite_token=${REDACTED}#top`,
    );
    expect(redactUrl('/api/apps/a/files/private/k/f.pdf?expires=1&signature=ff00')).toBe(
      `/api/apps/a/files/private/k/f.pdf?expires=1&signature=${REDACTED}`,
    );
    expect(redactUrl('/api/apps/a/entities/Todo?q=%7B%7D&limit=5')).toBe(
      '/api/apps/a/entities/Todo?q=%7B%7D&limit=5',
    );
  });

  it('knows a credential by its decoded name, however it is spelled', () => {
    for (const name of [
      '%61ccess_token',
      'access%5Ftoken',
      'access_token[]',
      'access_token%5B%5D',
      ';access_token',
      'sig',
      'api_key',
    ]) {
      expect(redactUrl(`/x?${name}=SECRET1&a=1`)).toBe(`/x?${name}=${REDACTED}&a=1`);
    }
  });

  it('redacts a token inside a percent-encoded URL parameter', () => {
    const nested = `/login?from_url=${encodeURIComponent('https://app.test/x?access_token=SECRET%2Fvalue&y=2')}`;
    const redacted = redactUrl(nested);
    expect(redacted).not.toContain('SECRET');
    expect(redacted).toContain('%26y%3D2');
  });
});

describe('serializeRequest', () => {
  it('is Fastify’s request log fields with the URL redacted', () => {
    expect(
      serializeRequest({
        method: 'GET',
        url: '/?access_token=abc',
        host: 'h',
        ip: '127.0.0.1',
        socket: { remotePort: 5 },
      }),
    ).toEqual({
      method: 'GET',
      url: `/?access_token=${REDACTED}`,
      host: 'h',
      remoteAddress: '127.0.0.1',
      remotePort: 5,
    });
  });
});
