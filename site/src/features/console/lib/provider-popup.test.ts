import { describe, expect, it, vi } from 'vitest';
import { ProviderPopupError, providerPopupUrl, signInWithProviderPopup } from './provider-popup';

// The console's provider sign-in: the popup starts at the SDK's login route in popup mode, and only the
// token posted by that popup, from our own origin, signs in.

const ORIGIN = 'https://console.example';

function fakeWindow(popup: { closed: boolean; close: () => void } | null) {
  const target = new EventTarget();
  const win = {
    location: { origin: ORIGIN },
    open: vi.fn(() => popup),
    setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
    clearInterval: (id: number) => clearInterval(id),
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
  };
  const post = (data: unknown, origin: string, source: unknown) =>
    target.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }));
  return { win: win as unknown as Window, open: win.open, post };
}

describe('providerPopupUrl', () => {
  it("is the SDK's login route for the provider, back to the console, handing over to our origin", () => {
    const google = new URL(providerPopupUrl('google', 'app-1', ORIGIN), ORIGIN);
    expect(google.pathname).toBe('/api/apps/auth/login');
    expect(google.searchParams.get('from_url')).toBe(`${ORIGIN}/_/`);
    expect(google.searchParams.get('popup_origin')).toBe(ORIGIN);
    expect(google.searchParams.get('app_id')).toBe('app-1');
    expect(new URL(providerPopupUrl('sso', 'app-1', ORIGIN), ORIGIN).pathname).toBe(
      '/api/apps/app-1/auth/sso/login',
    );
    expect(new URL(providerPopupUrl('github', 'app-1', ORIGIN), ORIGIN).pathname).toBe(
      '/api/apps/auth/github/login',
    );
  });
});

describe('signInWithProviderPopup', () => {
  it("resolves with the popup's token, ignoring other windows and origins, and closes the popup", async () => {
    const popup = { closed: false, close: vi.fn() };
    const { win, post } = fakeWindow(popup);
    const token = signInWithProviderPopup('google', 'app-1', win);
    post({ access_token: 'forged' }, 'https://evil.example', popup);
    post({ access_token: 'forged' }, ORIGIN, {});
    post({ nothing: true }, ORIGIN, popup);
    post({ access_token: 'real-token', is_new_user: false }, ORIGIN, popup);
    await expect(token).resolves.toBe('real-token');
    expect(popup.close).toHaveBeenCalled();
  });

  it('fails with what to do when the popup is blocked or closed before signing in', async () => {
    await expect(signInWithProviderPopup('google', 'app-1', fakeWindow(null).win)).rejects.toThrow(
      /allow pop-ups/,
    );
    const popup = { closed: false, close: vi.fn() };
    const closing = signInWithProviderPopup('github', 'app-1', fakeWindow(popup).win);
    popup.closed = true;
    await expect(closing).rejects.toBeInstanceOf(ProviderPopupError);
  });
});
