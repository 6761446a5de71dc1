import { randomOtp, sha256Hex } from '../../lib/secure-random';

/** OTP_MAX_FAILED_ATTEMPTS is how many wrong codes void a pending code. */
export const OTP_MAX_FAILED_ATTEMPTS = 5;

/** OtpCheck is the outcome of comparing a submitted code with the pending one. */
export type OtpCheck = 'ok' | 'wrong' | 'expired' | 'none';

/** hashOtp binds a code to its user before hashing, so equal codes of two users hash differently. */
export function hashOtp(userId: string, code: string): string {
  return sha256Hex(`${userId}:${code}`);
}

/** newOtp returns a fresh code, its hash and its expiry. */
export function newOtp(userId: string, ttlSeconds: number, now: Date = new Date()) {
  const code = randomOtp();
  return { code, hash: hashOtp(userId, code), expiresAt: new Date(now.getTime() + ttlSeconds * 1000) };
}

/** checkOtp compares a submitted code with the pending one; a wrong code is reported before expiry. */
export function checkOtp(
  pending: { code_hash: string; expires_at: Date; failed_attempts: number } | null,
  userId: string,
  submitted: string,
  now: Date = new Date(),
): OtpCheck {
  if (!pending || pending.failed_attempts >= OTP_MAX_FAILED_ATTEMPTS) return 'none';
  if (hashOtp(userId, submitted) !== pending.code_hash) return 'wrong';
  return new Date(pending.expires_at).getTime() <= now.getTime() ? 'expired' : 'ok';
}
