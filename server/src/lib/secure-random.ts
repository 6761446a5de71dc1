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

/** constantTimeEqual compares two secrets without leaking where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  // Hashing first gives equal lengths, so the comparison time does not reveal the expected length either.
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
