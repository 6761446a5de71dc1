import { describe, expect, it } from 'vitest';
import { authErrorMessage, authErrorReason } from './error-message';

/** sdkError is shaped like the SDK's Base44Error: status, data and the axios error underneath. */
function sdkError(status: number, data: unknown, headers: Record<string, string> = {}) {
  return Object.assign(new Error('Request failed with status code ' + status), {
    status,
    data,
    originalError: { response: { status, headers } },
  });
}

describe('authErrorMessage', () => {
  it("shows the server's own message", () => {
    expect(authErrorMessage(sdkError(401, { message: 'Invalid email or password' }))).toBe(
      'Invalid email or password',
    );
    expect(authErrorMessage(sdkError(400, { message: 'password: too short' }))).toBe('password: too short');
  });

  it('explains a rate limit with Retry-After when the server gave no message', () => {
    expect(authErrorMessage(sdkError(429, {}, { 'retry-after': '30' }))).toBe(
      'Too many attempts. Try again in 30 seconds.',
    );
    expect(authErrorMessage(sdkError(429, { message: 'Too many attempts: try again in 30 s' }))).toBe(
      'Too many attempts: try again in 30 s',
    );
  });

  it('says the server could not be reached when there is no response', () => {
    expect(authErrorMessage(new Error('Network Error'))).toMatch(/could not reach the server/);
  });

  it('falls back to a generic sentence', () => {
    expect(authErrorMessage(undefined)).toBe('Something went wrong. Please try again.');
  });
});

describe('authErrorReason', () => {
  it('reads extra_data.reason', () => {
    expect(authErrorReason(sdkError(403, { extra_data: { reason: 'email_not_verified' } }))).toBe(
      'email_not_verified',
    );
    expect(authErrorReason(new Error('x'))).toBeNull();
  });
});
