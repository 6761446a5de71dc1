import { describe, expect, it } from 'vitest';
import { NotConfiguredError } from './errors';
import { listenOrigin, mailLinkOrigin } from './own-origin';

const local = { protocol: 'http', localAddress: '127.0.0.1', localPort: 8080 };

describe('mailLinkOrigin', () => {
  it('uses PUBLIC_URL whatever the Host says', () => {
    const arrived = { ...local, host: 'evil.example' };
    expect(mailLinkOrigin('https://app.example.com', arrived)).toBe('https://app.example.com');
  });

  it('without PUBLIC_URL accepts only the address the server listens on', () => {
    expect(mailLinkOrigin(undefined, { ...local, host: '127.0.0.1:8080' })).toBe('http://127.0.0.1:8080');
    expect(mailLinkOrigin(undefined, { ...local, host: 'localhost:8080' })).toBe('http://localhost:8080');
    const mapped = { ...local, localAddress: '::ffff:127.0.0.1', host: '127.0.0.1:8080' };
    expect(mailLinkOrigin(undefined, mapped)).toBe('http://127.0.0.1:8080');
    const ipv6 = { ...local, localAddress: '::1', host: '[::1]:8080' };
    expect(mailLinkOrigin(undefined, ipv6)).toBe('http://[::1]:8080');
  });

  it.each([
    'evil.example',
    'evil.example:8080',
    '127.0.0.1:9090',
    '127.0.0.1',
    'localhost.evil.example:8080',
    'user@127.0.0.1:8080',
    '127.0.0.1:8080/path',
    '',
  ])('without PUBLIC_URL refuses Host %j with a 503-kind error naming PUBLIC_URL', (host) => {
    expect(() => mailLinkOrigin(undefined, { ...local, host })).toThrow(NotConfiguredError);
    expect(() => mailLinkOrigin(undefined, { ...local, host })).toThrow(/PUBLIC_URL/);
  });

  it('refuses localhost when the connection did not arrive on loopback', () => {
    expect(listenOrigin({ ...local, localAddress: '10.0.0.5', host: 'localhost:8080' })).toBeNull();
    expect(listenOrigin({ ...local, localAddress: '10.0.0.5', host: '10.0.0.5:8080' })).toBe(
      'http://10.0.0.5:8080',
    );
    expect(listenOrigin({ ...local, localAddress: undefined, host: '127.0.0.1:8080' })).toBeNull();
  });
});
