import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_SECONDS, createTokenSigner } from './access-token';

const secret = 'a'.repeat(40);
const signer = createTokenSigner(secret, '30d');

function unsigned(payload: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
}

describe('createTokenSigner', () => {
  it('mints a token that verifies for its app', async () => {
    const token = await signer.mint({ userId: 'u1', appId: 'app', tokenVersion: 0 });
    expect(await signer.verify(token, 'app')).toEqual({ userId: 'u1', appId: 'app', tokenVersion: 0 });
  });

  it('rejects another app, another secret, alg none, expiry and garbage', async () => {
    const token = await signer.mint({ userId: 'u1', appId: 'app', tokenVersion: 0 });
    expect(await signer.verify(token, 'other')).toBeNull();
    const foreign = await createTokenSigner('b'.repeat(40), '30d').mint({
      userId: 'u1',
      appId: 'app',
      tokenVersion: 0,
    });
    expect(await signer.verify(foreign, 'app')).toBeNull();
    const now = Math.floor(Date.now() / 1000);
    expect(await signer.verify(unsigned({ sub: 'u1', app_id: 'app', exp: now + 60 }), 'app')).toBeNull();
    const expired = await new SignJWT({ app_id: 'app' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setExpirationTime(now - 10)
      .sign(new TextEncoder().encode(secret));
    expect(await signer.verify(expired, 'app')).toBeNull();
    expect(await signer.verify('not-a-jwt', 'app')).toBeNull();
  });

  it('refuses a token without expiry', async () => {
    const forever = await new SignJWT({ app_id: 'app' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .sign(new TextEncoder().encode(secret));
    expect(await signer.verify(forever, 'app')).toBeNull();
  });

  it('carries the token version, and reads a token minted before versions as version 0', async () => {
    const token = await signer.mint({ userId: 'u1', appId: 'app', tokenVersion: 3 });
    expect(await signer.verify(token, 'app')).toEqual({ userId: 'u1', appId: 'app', tokenVersion: 3 });
    const legacy = await new SignJWT({ app_id: 'app' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    expect(await signer.verify(legacy, 'app')).toEqual({ userId: 'u1', appId: 'app', tokenVersion: 0 });
  });

  it('refuses a token issued in the future beyond the clock skew, or without iat', async () => {
    const now = Math.floor(Date.now() / 1000);
    const issuedAt = (iat: number | null) => {
      const jwt = new SignJWT({ app_id: 'app', tv: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('u1')
        .setExpirationTime(now + 30 * 86_400);
      return (iat === null ? jwt : jwt.setIssuedAt(iat)).sign(new TextEncoder().encode(secret));
    };
    expect(await signer.verify(await issuedAt(now + 365 * 86_400), 'app')).toBeNull();
    expect(await signer.verify(await issuedAt(now + CLOCK_SKEW_SECONDS + 5), 'app')).toBeNull();
    expect(await signer.verify(await issuedAt(null), 'app')).toBeNull();
    expect(await signer.verify(await issuedAt(now + 10), 'app')).not.toBeNull();
  });

  it('refuses a malformed token version', async () => {
    const token = await new SignJWT({ app_id: 'app', tv: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    expect(await signer.verify(token, 'app')).toBeNull();
  });
});

describe('minted service-role tokens (a function call’s own)', () => {
  it('verify as the service role for their app only, and never as a user', async () => {
    const token = await signer.mintService('app', 60, 'call-1');
    expect(await signer.verifyService(token, 'app')).toBe('call-1');
    expect(await signer.verifyService(token, 'other')).toBeNull();
    expect(await signer.verify(token, 'app')).toBeNull();
    expect(await createTokenSigner('b'.repeat(40), '30d').verifyService(token, 'app')).toBeNull();
  });

  it('are refused without a call id (it could not end with its call)', async () => {
    const unnamed = await new SignJWT({ app_id: 'app', role: 'service' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('service-role')
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 60)
      .sign(new TextEncoder().encode(secret));
    expect(await signer.verifyService(unnamed, 'app')).toBeNull();
  });

  it('expire, and a user token is not one', async () => {
    const expired = await new SignJWT({ app_id: 'app', role: 'service' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('service-role')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(secret));
    expect(await signer.verifyService(expired, 'app')).toBeNull();
    const user = await signer.mint({ userId: 'u1', appId: 'app', tokenVersion: 0 });
    expect(await signer.verifyService(user, 'app')).toBeNull();
  });
});
