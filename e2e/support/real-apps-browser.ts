// What a real app may and may not do in the browser against our server: no uncaught page error, no failing
// `/api` (or `/app-logs`) request of our origin, except calls of capabilities later issues bring, which must
// answer 501/503 JSON naming what is missing. Requests to other origins (fonts, images: the test network
// is closed) are ignored.
import { expect, type Page, type Request, type Response } from '@playwright/test';
import { waitForHydration } from './open-site';
import { signInOnPage } from './login-page';
import type { RunningServer } from './server-process';

/**
 * LATER_CAPABILITY matches the API paths this server answers 501 by design: SMS, and an agent's messaging
 * channels (WhatsApp, Telegram). InvokeLLM is not one (the real-apps server has the provider double, so its
 * calls must succeed), nor are functions (they run) or agent conversations.
 */
const LATER_CAPABILITY = /\/integration-endpoints\/Core\/SendSMS$|\/agents\/[^/]+\/(whatsapp|telegram)$/;

/** ApiCall is one answered request to our server's API, as the browser saw it. */
export interface ApiCall {
  method: string;
  path: string;
  status: number;
  body: string;
}

/** BrowserWatch records what the page did against our server while a test drives it. */
export interface BrowserWatch {
  pageErrors: string[];
  /** calls are every answered `/api` and `/app-logs` request, in order. */
  calls: ApiCall[];
  /** broken are requests to our API that got no answer (other than being aborted by a navigation). */
  broken: string[];
  /**
   * takeCalls returns the calls so far and forgets them: the anonymous visit of a private app before
   * sign-in is refused by design, and checked with expectOnlySignInRefusals instead.
   */
  takeCalls(): ApiCall[];
  /** laterCalls are the answered calls of later issues' capabilities. */
  laterCalls(): ApiCall[];
  /** expectClean asserts no page error, no unanswered API call and no failing call (later issues: 501/503 JSON). */
  expectClean(): Promise<void>;
}

function isOurApi(origin: string, url: string): boolean {
  const parsed = new URL(url);
  return (
    parsed.origin === origin &&
    (parsed.pathname.startsWith('/api/') || parsed.pathname.startsWith('/app-logs/'))
  );
}

/**
 * watchBrowser starts recording the page's errors and its calls to server's API, as the app reaches it:
 * at apiOrigin (default the server's own; a dev server's origin when it proxies `/api`).
 */
export function watchBrowser(page: Page, server: RunningServer, apiOrigin = server.url): BrowserWatch {
  const pageErrors: string[] = [];
  const calls: ApiCall[] = [];
  const broken: string[] = [];
  const bodies: Promise<void>[] = [];
  page.on('pageerror', (error) => pageErrors.push(`${error.name}: ${error.message}`));
  page.on('response', (response: Response) => {
    const request = response.request();
    if (!isOurApi(apiOrigin, request.url())) return;
    const url = new URL(request.url());
    const call: ApiCall = {
      method: request.method(),
      path: url.pathname,
      status: response.status(),
      body: '',
    };
    calls.push(call);
    if (response.status() >= 400) {
      bodies.push(
        response.text().then(
          (text) => void (call.body = text.slice(0, 500)),
          () => void (call.body = '(body unavailable)'),
        ),
      );
    }
  });
  page.on('requestfailed', (request: Request) => {
    if (!isOurApi(apiOrigin, request.url())) return;
    const reason = request.failure()?.errorText ?? 'failed';
    if (reason === 'net::ERR_ABORTED') return; // a navigation cancelled it
    broken.push(`${request.method()} ${new URL(request.url()).pathname}: ${reason}`);
  });
  const isLater = (call: ApiCall) => LATER_CAPABILITY.test(call.path);
  return {
    pageErrors,
    calls,
    broken,
    takeCalls: () => calls.splice(0, calls.length),
    laterCalls: () => calls.filter(isLater),
    async expectClean() {
      await Promise.all(bodies);
      expect(pageErrors, 'uncaught page errors').toEqual([]);
      expect(broken, 'API requests without an answer').toEqual([]);
      const failing = calls.filter((call) => call.status >= 400 && !isLater(call));
      expect(
        failing.map((call) => `${call.method} ${call.path} → ${call.status} ${call.body}`),
        'failing API requests',
      ).toEqual([]);
      for (const call of calls.filter(isLater)) {
        const where = `${call.method} ${call.path} → ${call.status} ${call.body}`;
        expect([501, 503], where).toContain(call.status);
        const body = JSON.parse(call.body) as { message?: unknown };
        expect(typeof body.message === 'string' && /not available/.test(body.message), where).toBe(true);
      }
    },
  };
}

/**
 * expectOnlySignInRefusals asserts that the failing calls of an anonymous visit to a private app are the
 * 401/403 refusals that send the visitor to sign in, nothing else.
 */
export function expectOnlySignInRefusals(calls: ApiCall[]): void {
  const failing = calls.filter((call) => call.status >= 400);
  expect(failing.length).toBeGreaterThan(0);
  for (const call of failing) expect([401, 403], `${call.method} ${call.path}`).toContain(call.status);
}

/**
 * signInThroughLogin waits for the app to send the visitor to our `/login`, signs in there, and waits until
 * the browser is back on the app (the SDK takes `?access_token=` out of the address).
 */
export async function signInThroughLogin(
  page: Page,
  server: RunningServer,
  email: string,
  password: string,
): Promise<void> {
  await page.waitForURL((url) => url.origin === server.url && url.pathname === '/login', {
    timeout: 30_000,
  });
  await waitForHydration(page);
  await signInOnPage(page, email, password);
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
}
