// wellness (2026 template, same origin, @base44/vite-plugin 1.0.10): a signed-in app whose home page calls
// auth.me and creates the user's UserProgress; check-ins get their plan from Core.InvokeLLM with a
// response_json_schema (answered by the provider double, see startRealAppServer) and store it, the
// journal creates and updates JournalEntry records, the plugin logs page views to /app-logs without /api.
// The same app also runs in Vite's dev server, whose vite-plugin proxy forwards `/api` to us.
import { expect, test } from '../../support/test';
import { PASSWORD, uniqueEmail } from '../../support/auth-helpers';
import {
  createAppUser,
  prepareRealApp,
  serviceApi,
  startRealAppServer,
  startViteDevServer,
  type PreparedApp,
} from '../../support/real-apps';
import { expectOnlySignInRefusals, signInThroughLogin, watchBrowser } from '../../support/real-apps-browser';
import { freePort, type RunningServer } from '../../support/server-process';

let app: PreparedApp;
let server: RunningServer;
let vitePort = 0;

test.beforeAll(async () => {
  test.setTimeout(15 * 60_000); // a cold run installs the app first
  app = await prepareRealApp('wellness');
  // A signed-in app: private, so the app itself sends an anonymous visitor to /login (its AuthContext).
  // The dev server's origin is where sign-in returns to in the last test: allowed up front.
  vitePort = await freePort();
  server = await startRealAppServer(app, {
    APP_VISIBILITY: 'private_with_login',
    CORS_ORIGINS: `http://127.0.0.1:${vitePort}`,
  });
});

test.afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

test('sign in, check in, write and edit a journal entry, open the profile', async ({ page }) => {
  const watch = watchBrowser(page, server);
  const email = uniqueEmail('wellness');
  await createAppUser(server, app, email);

  // Anonymous: public settings say auth_required, the app sends the visitor to our /login and is back signed in.
  await page.goto(`${server.url}/`);
  await signInThroughLogin(page, server, email, PASSWORD);
  const anonymous = watch.takeCalls();
  expectOnlySignInRefusals(anonymous);
  await page.getByRole('button', { name: 'skip tutorial' }).click();

  // Check-in: the plan comes from Core.InvokeLLM with a response_json_schema (the double answers an
  // instance of it), the app shows it and stores it as a CheckInLog.
  await page.getByRole('button', { name: 'tense' }).click();
  await page.getByRole('button', { name: 'get my wellness plan →' }).click();
  await expect(page.getByRole('button', { name: '← new check-in' })).toBeVisible();
  expect(
    watch.calls
      .filter((call) => call.path.endsWith('/integration-endpoints/Core/InvokeLLM'))
      .map((call) => call.status),
  ).toEqual([200]);
  await expect
    .poll(() => serviceApi<unknown[]>(server, `/api/apps/${app.appId}/entities/CheckInLog`))
    .toMatchObject([
      {
        adjectives: ['tense'],
        ai_affirmation: 'text',
        ai_recommendations: ['text'],
        suggested_exercise: 'text',
      },
    ]);
  await page.getByRole('button', { name: '← new check-in' }).click();

  // Journal: today's page opens ready to write; a new entry, then an edit of it.
  await page.getByRole('button', { name: 'Journal' }).click();
  await page.getByPlaceholder('anything else on your mind...').fill('first words');
  await page.getByRole('button', { name: 'save entry' }).click();
  await page.getByRole('button', { name: 'edit', exact: true }).click();
  await page.getByPlaceholder('anything else on your mind...').fill('second words');
  await page.getByRole('button', { name: 'save entry' }).click();
  await expect(page.getByRole('button', { name: 'edit', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Profile' }).click();
  await expect(page.getByRole('button', { name: 'Journal' })).toBeVisible();

  const entries = await serviceApi<Array<{ free_write: string; created_by: string }>>(
    server,
    `/api/apps/${app.appId}/entities/JournalEntry`,
  );
  expect(entries).toMatchObject([{ free_write: 'second words', created_by: email }]);
  const progress = await serviceApi<Array<{ tutorial_completed: boolean }>>(
    server,
    `/api/apps/${app.appId}/entities/UserProgress`,
  );
  expect(progress).toMatchObject([{ tutorial_completed: true }]);
  // The vite plugin's page-view beacon carries no token: answered 204 and stored without a user, even on
  // this private app.
  const beacons = [...anonymous, ...watch.calls].filter((call) =>
    call.path.startsWith(`/app-logs/${app.appId}/log-user-in-app/`),
  );
  expect(beacons.map((call) => call.status)).toContain(204);
  await expect
    .poll(async () => {
      const logs = await serviceApi<{ items: Array<{ user_id: string | null }> }>(
        server,
        `/api/app-logs/${app.appId}?limit=50`,
      );
      return logs.items.filter((item) => item.user_id === null).length;
    })
    .toBeGreaterThan(0);
  await watch.expectClean();
});

test('runs in vite’s dev server through the vite plugin’s /api proxy, signing in on our /login', async ({
  page,
}) => {
  test.setTimeout(180_000); // vite optimises the app's dependencies on its first page load
  // `VITE_BASE44_APP_BASE_URL=<our server> npx vite`: the app's base URL (for /login) and its proxy target.
  const vite = await startViteDevServer(app, vitePort, { VITE_BASE44_APP_BASE_URL: server.url });
  try {
    expect(vite.output()).toContain(`Proxy enabled: /api -> ${server.url}`);
    const watch = watchBrowser(page, server, vite.url);
    const email = uniqueEmail('wellness-dev');
    await createAppUser(server, app, email);

    await page.goto(vite.url);
    await signInThroughLogin(page, server, email, PASSWORD);
    expect(new URL(page.url()).origin).toBe(vite.url);
    // The tutorial, unless this server's first test completed it already (the app reads UserProgress).
    const signedIn = page
      .getByRole('button', { name: 'skip tutorial' })
      .or(page.getByRole('button', { name: 'tense' }));
    await expect(signedIn.first()).toBeVisible({ timeout: 60_000 });
    // The refusals that sent the visitor to /login, then the signed-in app: all through the proxy.
    const calls = watch.takeCalls().filter((call) => call.path.startsWith('/api/'));
    expectOnlySignInRefusals(calls);
    expect(calls.map((call) => `${call.path} ${call.status}`)).toContain(
      `/api/apps/${app.appId}/entities/User/me 200`,
    );
    const skip = page.getByRole('button', { name: 'skip tutorial' });
    if (await skip.isVisible()) await skip.click();
    await expect(page.getByRole('button', { name: 'tense' })).toBeVisible();
    await watch.expectClean();
  } finally {
    vite.stop();
  }
});
