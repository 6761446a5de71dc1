import { describe, expect, it, vi } from 'vitest';
import { AuthConfigSchema } from '../../schemas/auth-config';
import { signInChoicesFor, SSO_NAME_SECRET } from './sign-in-choices';

const config = (input: object) => AuthConfigSchema.parse(input);

describe('signInChoicesFor', () => {
  it('is undefined when the app has no auth config or enables no provider', () => {
    const secret = vi.fn(async () => 'Okta');
    expect(signInChoicesFor(undefined, secret)).toBeUndefined();
    expect(signInChoicesFor(config({}), secret)).toBeUndefined();
    expect(secret).not.toHaveBeenCalled();
  });

  it('lists the enabled providers, and reads no secret without SSO', async () => {
    const secret = vi.fn(async () => 'Okta');
    const choices = signInChoicesFor(
      config({ enableGoogleLogin: true, enableGithubLogin: true, enableAppleLogin: true }),
      secret,
    );
    expect(await choices?.()).toEqual({ signInProviders: ['google', 'apple', 'github'] });
    expect(secret).not.toHaveBeenCalled();
  });

  it('names SSO from the sso_name secret, trimmed, at each call', async () => {
    let stored: string | undefined = '  Okta ';
    const secret = vi.fn(async () => stored);
    const choices = signInChoicesFor(config({ enableSSOLogin: true }), secret);
    expect(await choices?.()).toEqual({ signInProviders: ['sso'], ssoName: 'Okta' });
    expect(secret).toHaveBeenCalledWith(SSO_NAME_SECRET);
    stored = undefined;
    expect(await choices?.()).toEqual({ signInProviders: ['sso'] });
  });

  it('drops a blank, overlong or unreadable name: the button then says "single sign-on"', async () => {
    const sso = config({ enableSSOLogin: true });
    expect(await signInChoicesFor(sso, async () => '   ')?.()).toEqual({ signInProviders: ['sso'] });
    expect(await signInChoicesFor(sso, async () => 'x'.repeat(61))?.()).toEqual({
      signInProviders: ['sso'],
    });
    const down = async () => Promise.reject(new Error('database restarting'));
    expect(await signInChoicesFor(sso, down)?.()).toEqual({ signInProviders: ['sso'] });
  });
});
