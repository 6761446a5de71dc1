import { providerLoginPath } from '../../../lib/provider-sign-in';
import type { SignInProviderId } from '../../../page-contract/page-contract';

// The console's "Continue with …": the server's provider sign-in in popup mode, as the SDK runs it inside
// an iframe. The popup's last page posts the token to this window only (popup_origin is our own origin), so
// the token never appears in the console's address bar or history.

/** POPUP_FEATURES: a small window beside the console, the size the SDK opens. */
const POPUP_FEATURES = 'width=500,height=600';

/** ProviderPopupError is a sign-in that did not end with a token (blocked or closed popup). */
export class ProviderPopupError extends Error {
  override name = 'ProviderPopupError';
}

/** providerPopupUrl is where the popup starts: the SDK's login route, back to `/_/`, handing over to origin. */
export function providerPopupUrl(provider: SignInProviderId, appId: string, origin: string): string {
  const path = providerLoginPath(provider, appId, `${origin}/_/`);
  return `${path}&${new URLSearchParams({ popup_origin: origin })}`;
}

/**
 * signInWithProviderPopup opens the provider's sign-in in a popup and resolves with the access token the
 * popup's last page posts. Only a message from that popup, at our own origin, counts.
 */
export function signInWithProviderPopup(
  provider: SignInProviderId,
  appId: string,
  win: Window = window,
): Promise<string> {
  const origin = win.location.origin;
  const popup = win.open(providerPopupUrl(provider, appId, origin), 'console-sign-in', POPUP_FEATURES);
  if (!popup) {
    return Promise.reject(
      new ProviderPopupError('The sign-in window was blocked: allow pop-ups for this site.'),
    );
  }
  return new Promise((resolve, reject) => {
    const watch = win.setInterval(() => {
      if (!popup.closed) return;
      stop();
      reject(new ProviderPopupError('The sign-in window was closed before signing in.'));
    }, 500);
    function onMessage(event: MessageEvent) {
      if (event.origin !== origin || event.source !== popup) return;
      const token = (event.data as { access_token?: unknown } | null)?.access_token;
      if (typeof token !== 'string' || token === '') return;
      stop();
      popup?.close();
      resolve(token);
    }
    function stop() {
      win.clearInterval(watch);
      win.removeEventListener('message', onMessage);
    }
    win.addEventListener('message', onMessage);
  });
}
