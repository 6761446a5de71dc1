import { describe, expect, it } from 'vitest';
import { clientAddress, trustedProxies } from './client-address';

describe('clientAddress', () => {
  it('is the TCP peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.9', '1.2.3.4', trustedProxies(false))).toBe('203.0.113.9');
  });

  it('walks X-Forwarded-For right to left while hops are trusted, as Fastify does', () => {
    expect(clientAddress('10.0.0.1', '1.2.3.4, 5.6.7.8', trustedProxies(1))).toBe('5.6.7.8');
    expect(clientAddress('10.0.0.1', '1.2.3.4, 5.6.7.8', trustedProxies(2))).toBe('1.2.3.4');
    expect(clientAddress('10.0.0.1', '1.2.3.4, 5.6.7.8', trustedProxies(true))).toBe('1.2.3.4');
    expect(clientAddress('10.0.0.1', undefined, trustedProxies(true))).toBe('10.0.0.1');
  });

  it('trusts listed addresses, CIDRs and proxy-addr names (IPv4-mapped peers included)', () => {
    const trusted = trustedProxies(['loopback', '10.0.0.0/8']);
    expect(clientAddress('::ffff:127.0.0.1', '9.9.9.9', trusted)).toBe('9.9.9.9');
    expect(clientAddress('10.1.2.3', '9.9.9.9, 10.0.0.2', trusted)).toBe('9.9.9.9');
    expect(clientAddress('192.168.1.1', '9.9.9.9', trusted)).toBe('192.168.1.1');
  });
});
