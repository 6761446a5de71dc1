import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** randomSecret returns 32 random bytes as base64url, for signing keys and single-use tokens. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** randomOtp returns a uniformly random 6-digit code, zero-padded. */
export function randomOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** sha256Hex hashes a token so that only its digest is ever stored. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * secretMatcher returns a check of candidates against expected that takes the same time wherever they
 * differ. A candidate of another length is refused at once: the length of a token is not its secret.
 */
export function secretMatcher(expected: string): (candidate: string) => boolean {
  const wanted = Buffer.from(expected);
  // Measured before copying: every user token is checked here first, and is never the service token.
  return (candidate) =>
    Buffer.byteLength(candidate) === wanted.length && timingSafeEqual(Buffer.from(candidate), wanted);
}

const ID_BYTES = 12;
// Drawing entropy for many ids at once: one randomBytes call per id costs ~0.4 s on a 100k-row import.
let idPool = Buffer.alloc(0);
let idOffset = 0;

/** randomId returns 24 random hex characters (96 bits), for record ids. */
export function randomId(): string {
  if (idOffset + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_BYTES * 4096);
    idOffset = 0;
  }
  const id = idPool.toString('hex', idOffset, idOffset + ID_BYTES);
  idOffset += ID_BYTES;
  return id;
}
