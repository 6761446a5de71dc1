// The console's session: its own access token, kept in this tab's sessionStorage under a key no other page
// of the site reads (the SDK's `base44_access_token` in localStorage stays untouched), never in a URL.

/** CONSOLE_SESSION_KEY is the sessionStorage key of the console's access token. */
export const CONSOLE_SESSION_KEY = 'queen-console.access-token';

/** readConsoleToken returns the console's token, or null when signed out (or storage is blocked). */
export function readConsoleToken(): string | null {
  try {
    return sessionStorage.getItem(CONSOLE_SESSION_KEY);
  } catch {
    return null;
  }
}

/** saveConsoleToken starts the console's session with token. */
export function saveConsoleToken(token: string): void {
  try {
    sessionStorage.setItem(CONSOLE_SESSION_KEY, token);
  } catch {
    // Storage blocked: the session lasts as long as the page (the caller keeps the token in memory).
  }
}

/** forgetConsoleToken ends the console's session. */
export function forgetConsoleToken(): void {
  try {
    sessionStorage.removeItem(CONSOLE_SESSION_KEY);
  } catch {
    // Nothing stored.
  }
}

/** consoleAppId is the app id the server writes into the console's page (`<meta name="app-id">`). */
export function consoleAppId(doc: Document = document): string {
  return doc.querySelector<HTMLMetaElement>('meta[name="app-id"]')?.content ?? '';
}
