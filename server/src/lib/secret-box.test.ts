import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateSecretsKey, openSecret, parseSecretsKey, sealSecret, SecretOpenError } from './secret-box';

const key = randomBytes(32);
const owner = ['app-1', 'RESEND_API_KEY'];

describe('sealSecret / openSecret', () => {
  it('round-trips a value, unicode included, and never stores it readable', () => {
    const value = 're_live_123 ✓ "quoted"';
    const sealed = sealSecret(key, owner, value);
    expect(sealed).not.toContain('re_live');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(openSecret(key, owner, sealed)).toBe(value);
  });

  it('uses a fresh IV per value: the same value seals differently each time', () => {
    expect(sealSecret(key, owner, 'same')).not.toBe(sealSecret(key, owner, 'same'));
  });

  it('refuses to open with another key (never garbage)', () => {
    const sealed = sealSecret(key, owner, 'value');
    expect(() => openSecret(randomBytes(32), owner, sealed)).toThrow(SecretOpenError);
  });

  it('detects tampering with the ciphertext, the tag or the IV', () => {
    const sealed = sealSecret(key, owner, 'a value long enough');
    const [version, iv, tag, ciphertext] = sealed.split('.') as [string, string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    for (const altered of [
      [version, iv, tag, flip(ciphertext)],
      [version, iv, flip(tag), ciphertext],
      [version, flip(iv), tag, ciphertext],
    ]) {
      expect(() => openSecret(key, owner, altered.join('.'))).toThrow(SecretOpenError);
    }
  });

  it('binds a value to its app and name: moved to another owner it does not open', () => {
    const sealed = sealSecret(key, owner, 'value');
    expect(() => openSecret(key, ['app-2', 'RESEND_API_KEY'], sealed)).toThrow(SecretOpenError);
    expect(() => openSecret(key, ['app-1', 'OTHER'], sealed)).toThrow(SecretOpenError);
  });

  it('refuses what is not a sealed value', () => {
    expect(() => openSecret(key, owner, 'plain text')).toThrow(SecretOpenError);
    expect(() => openSecret(key, owner, 'v2.a.b.c')).toThrow(SecretOpenError);
  });
});

describe('parseSecretsKey', () => {
  it('reads 32 bytes as hex or base64 (standard or URL-safe)', () => {
    const raw = randomBytes(32);
    expect(parseSecretsKey(raw.toString('hex'))).toEqual(raw);
    expect(parseSecretsKey(raw.toString('base64'))).toEqual(raw);
    expect(parseSecretsKey(raw.toString('base64url'))).toEqual(raw);
    expect(parseSecretsKey(generateSecretsKey())).toBeInstanceOf(Buffer);
  });

  it('says why a key is wrong without repeating it', () => {
    const short = randomBytes(16).toString('base64');
    const problem = parseSecretsKey(short);
    expect(problem).toMatch(/must be 32 bytes, but this base64 value holds 16/);
    expect(problem).not.toContain(short);
    expect(parseSecretsKey('not a key!')).toMatch(/64 hex digits or base64/);
  });
});
