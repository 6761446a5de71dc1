// Apple's client secret is a JWT the server signs: its claims and signature, checked with the public key.
import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { NotConfiguredError } from '../../lib/errors';
import {
  APPLE_AUDIENCE,
  APPLE_SECRET_SECONDS,
  appleCallbackName,
  appleClientSecret,
} from './apple-client-secret';

async function appleKey() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { pem: await exportPKCS8(privateKey), publicPem: await exportSPKI(publicKey) };
}

describe('appleClientSecret', () => {
  it('signs ES256 with kid = key id, iss = team id, sub = client id, aud = Apple, a 5-minute lifetime', async () => {
    const { pem, publicPem } = await appleKey();
    const now = Date.UTC(2026, 0, 1);
    const jwt = await appleClientSecret(
      { teamId: 'TEAM123456', keyId: 'KEY1234567', clientId: 'com.example.web', privateKey: pem },
      now,
    );
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'ES256', kid: 'KEY1234567' });
    const { payload } = await jwtVerify(jwt, await importSPKI(publicPem, 'ES256'), {
      issuer: 'TEAM123456',
      subject: 'com.example.web',
      audience: APPLE_AUDIENCE,
      currentDate: new Date(now + 1000),
    });
    expect(payload.iat).toBe(now / 1000);
    expect(payload.exp).toBe(now / 1000 + APPLE_SECRET_SECONDS);
    expect(APPLE_SECRET_SECONDS).toBeLessThanOrEqual(180 * 24 * 3600);
  });

  it('accepts a PEM whose line breaks were pasted as "\\n"', async () => {
    const { pem, publicPem } = await appleKey();
    const jwt = await appleClientSecret({
      teamId: 't',
      keyId: 'k',
      clientId: 'c',
      privateKey: pem.replaceAll('\n', '\\n'),
    });
    await expect(jwtVerify(jwt, await importSPKI(publicPem, 'ES256'))).resolves.toBeTruthy();
  });

  it('refuses a key that is not a PKCS#8 P-256 PEM, naming the secret', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    for (const bad of ['not a key', await exportPKCS8(privateKey)]) {
      const signed = appleClientSecret({ teamId: 't', keyId: 'k', clientId: 'c', privateKey: bad });
      await expect(signed).rejects.toThrow(NotConfiguredError);
      await expect(signed).rejects.toThrow(/apple_oauth_private_key/);
    }
  });
});

describe('appleCallbackName', () => {
  const at = (user?: string) => {
    const url = new URL('https://app.example/api/apps/auth/callback?code=x');
    if (user !== undefined) url.searchParams.set('user', user);
    return url;
  };
  it('reads the first sign-in form’s `user` name, and nothing from anything else', () => {
    expect(appleCallbackName(at('{"name":{"firstName":"Ann","lastName":"Apple"},"email":"a@b.c"}'))).toBe(
      'Ann Apple',
    );
    expect(appleCallbackName(at())).toBeUndefined();
    expect(appleCallbackName(at('not json'))).toBeUndefined();
    expect(appleCallbackName(at('{"name":{"firstName":42}}'))).toBeUndefined();
  });
});
