import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenSigner } from './access-token';

const secret = 'a'.repeat(40);
const signer = createTokenSigner(secret, '30d');

function unsigned(payload: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
}

describe('createTokenSigner', () => {
  it('mints a token that verifies for its app', async () => {
    const token = await signer.mint({ userId: 'u1', appId: 'app' });
    expect(await signer.verify(token, 'app')).toEqual({ userId: 'u1', appId: 'app' });
  });

  it('rejects another app, another secret, alg none, expiry and garbage', async () => {
    const token = await signer.mint({ userId: 'u1', appId: 'app' });
    expect(await signer.verify(token, 'other')).toBeNull();
    const foreign = await createTokenSigner('b'.repeat(40), '30d').mint({ userId: 'u1', appId: 'app' });
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
});
