// Encryption at rest of app secrets: AES-256-GCM with a random 96-bit IV per value and the owner (app id and
// name) as associated data, so a sealed value moved to another app or name, or altered, fails to open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** SECRET_KEY_BYTES is the key length AES-256 takes. */
export const SECRET_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** VERSION prefixes each sealed value, so a later format can be told apart. */
const VERSION = 'v1';

/** SecretOpenError says a sealed value does not open with this key (wrong key, or altered). */
export class SecretOpenError extends Error {
  override name = 'SecretOpenError';
}

/**
 * parseSecretsKey reads a 32-byte key written as 64 hex digits or as base64 (standard or URL-safe), or
 * returns why it is not one (the message never repeats the value).
 */
export function parseSecretsKey(text: string): Buffer | string {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === SECRET_KEY_BYTES) return bytes;
    return `must be ${SECRET_KEY_BYTES} bytes, but this base64 value holds ${bytes.length} (generate one with: openssl rand -base64 32)`;
  }
  return `must be ${SECRET_KEY_BYTES} bytes written as 64 hex digits or base64 (generate one with: openssl rand -base64 32)`;
}

/** generateSecretsKey returns a fresh random key, base64. */
export function generateSecretsKey(): string {
  return randomBytes(SECRET_KEY_BYTES).toString('base64');
}

const aad = (owner: readonly string[]) => Buffer.from(owner.join('\u0000'), 'utf8');

/** sealSecret encrypts value for owner (e.g. [appId, name]): `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function sealSecret(key: Buffer, owner: readonly string[], value: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(owner));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
  return [VERSION, ...parts].join('.');
}

/** openSecret decrypts what sealSecret sealed for the same owner, or throws SecretOpenError. */
export function openSecret(key: Buffer, owner: readonly string[], sealed: string): string {
  const [version, iv, tag, ciphertext, extra] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined || extra) {
    throw new SecretOpenError('not a sealed secret of a known format');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(aad(owner));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretOpenError('the key does not open it (a different key, or the value was altered)');
  }
}
