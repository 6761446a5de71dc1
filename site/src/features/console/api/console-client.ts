import { Base44Error, createClient, type Base44Client } from '@base44/sdk';
import { ConsoleApiError } from './console-error';

// The official SDK, as the console uses it where an endpoint exists (the signed-in user, entity reads).
// The session's token goes in as a header, never through `token` or `setToken`: those store it in
// localStorage (`base44_access_token`), where the marketing site on this origin would sign in with it. A
// header set here outranks the Authorization the SDK takes from that storage (axios puts instance headers
// over its `common` defaults), so a visitor's token there never speaks for the console. Analytics are off:
// the console's reads are not the app's traffic.

/** createConsoleClient returns the SDK for appId on this origin, speaking with the session's token. */
export function createConsoleClient(appId: string, token: string): Base44Client {
  return createClient({
    appId,
    serverUrl: '',
    requiresAuth: false,
    headers: { Authorization: `Bearer ${token}` },
    analytics: { enabled: false },
  });
}

/** sdkCall runs an SDK call, turning its error into the console's (the server's message and status). */
export async function sdkCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Base44Error) throw new ConsoleApiError(error.message, error.status ?? 0);
    throw error;
  }
}
