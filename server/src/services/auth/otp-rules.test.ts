import { describe, expect, it } from 'vitest';
import { checkOtp, hashOtp, newOtp, OTP_MAX_FAILED_ATTEMPTS } from './otp-rules';

describe('OTP rules', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const otp = newOtp('u1', 600, now);
  const pending = { code_hash: otp.hash, expires_at: otp.expiresAt, failed_attempts: 0 };

  it('makes 6-digit codes bound to the user', () => {
    expect(otp.code).toMatch(/^\d{6}$/);
    expect(hashOtp('u2', otp.code)).not.toBe(otp.hash);
    expect(otp.expiresAt.getTime() - now.getTime()).toBe(600_000);
  });

  it('accepts the right code in time only', () => {
    expect(checkOtp(pending, 'u1', otp.code, now)).toBe('ok');
    expect(checkOtp(pending, 'u1', otp.code === '000000' ? '000001' : '000000', now)).toBe('wrong');
    expect(checkOtp(pending, 'u1', otp.code, new Date(now.getTime() + 600_000))).toBe('expired');
    expect(checkOtp(null, 'u1', otp.code, now)).toBe('none');
  });

  it('voids the code after the maximum of failed attempts', () => {
    const voided = { ...pending, failed_attempts: OTP_MAX_FAILED_ATTEMPTS };
    expect(checkOtp(voided, 'u1', otp.code, now)).toBe('none');
  });
});
