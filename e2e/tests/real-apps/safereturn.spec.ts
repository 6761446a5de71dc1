// safereturn (2026 template, same origin): the app's own email/password pages (register → OTP from the mail
// → verify → setToken; log in; forgot → the mailed link to its own /reset-password → log in), the dashboard's TripPlan list, the profile's updateMe with custom User
// fields and photo (a public upload), and the family portal, whose anonymous call of the backend function
// getTripPublic reads the trip as the service role (Deno).
import { expect, test } from '@playwright/test';
import { PASSWORD, uniqueEmail } from '../../support/auth-helpers';
import { linkFrom, otpFrom, waitForMail } from '../../support/outbox';
import {
  createAppUser,
  prepareRealApp,
  serviceApi,
  startRealAppServer,
  type PreparedApp,
} from '../../support/real-apps';
import { TINY_PNG } from '../../support/openai-images-double';
import { watchBrowser } from '../../support/real-apps-browser';
import type { RunningServer } from '../../support/server-process';

let app: PreparedApp;
let server: RunningServer;

test.beforeAll(async () => {
  test.setTimeout(15 * 60_000); // a cold run installs the app first
  app = await prepareRealApp('safereturn');
  server = await startRealAppServer(app, { APP_SELF_SIGNUP: 'true' });
});

test.afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

test('register with the emailed code, open dashboard and profile, save the profile, log in again', async ({
  page,
  browser,
}) => {
  const watch = watchBrowser(page, server);
  const email = uniqueEmail('safereturn');

  // The app's own sign-up page (a client route; the server answers index.html).
  await page.goto(`${server.url}/register`);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(PASSWORD);
  await page.locator('#confirm').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  const code = otpFrom(await waitForMail(server.dataDir, email));
  await page.locator('input[autocomplete="one-time-code"]').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(`${server.url}/`);
  // Anonymous, the layout's auth.me() got 401 (caught by the app): the only refusals before sign-in.
  const anonymous = watch.takeCalls().filter((call) => call.status >= 400);
  for (const call of anonymous) expect(`${call.path} ${call.status}`).toMatch(/\/entities\/User\/me 401$/);

  await page.goto(`${server.url}/dashboard`);
  await expect(page.locator('a[href="/new-plan"]').first()).toBeVisible();
  await page.goto(`${server.url}/profile`);
  await page.getByPlaceholder('Jane Doe').fill('Jane Walker');
  await page.getByPlaceholder('(555) 123-4567').fill('555 0100');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByRole('button', { name: 'Save Profile' })).toBeEnabled();
  await expect
    .poll(async () => {
      const users = await serviceApi<Array<{ email: string; saved_primary_name?: string }>>(
        server,
        `/api/apps/${app.appId}/entities/User?q=${encodeURIComponent(JSON.stringify({ email }))}`,
      );
      return users[0]?.saved_primary_name;
    })
    .toBe('Jane Walker');

  // The profile photo: a public Core.UploadFile, then updateMe with its file_url, shown from our server.
  await page.locator('input[type="file"][accept="image/*"]').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: TINY_PNG,
  });
  const photo = page.getByRole('img', { name: 'Profile' });
  await expect(photo).toBeVisible();
  const photoUrl = await photo.getAttribute('src');
  expect(photoUrl).toContain(`/api/apps/${app.appId}/files/public/`);
  const served = await fetch(new URL(photoUrl ?? '', server.url));
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await served.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  await expect
    .poll(async () => {
      const users = await serviceApi<Array<{ email: string; profile_photo_url?: string }>>(
        server,
        `/api/apps/${app.appId}/entities/User?q=${encodeURIComponent(JSON.stringify({ email }))}`,
      );
      return users[0]?.profile_photo_url;
    })
    .toBe(photoUrl);

  // The family portal calls the backend function getTripPublic anonymously; it reads the trip as the
  // service role and the page shows it.
  const trip = await serviceApi<{ id: string }>(server, `/api/apps/${app.appId}/entities/TripPlan`, {
    method: 'POST',
    body: {
      primary_name: 'Portal Traveler',
      park_name: 'Glacier Point',
      expected_return_datetime: new Date(Date.now() + 86_400_000).toISOString(),
    },
  });
  await page.goto(`${server.url}/family?id=${trip.id}`);
  await expect(page.getByText('Portal Traveler')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Glacier Point')).toBeVisible();
  await watch.expectClean();

  // Log in again through the app's own login page, in a fresh browser context.
  const context = await browser.newContext();
  const second = await context.newPage();
  const secondWatch = watchBrowser(second, server);
  await second.goto(`${server.url}/register`);
  await second.getByRole('link', { name: 'Log in' }).click();
  await second.locator('#email').fill(email);
  await second.locator('#password').fill(PASSWORD);
  await second.locator('button[type="submit"]').click();
  await second.waitForURL(`${server.url}/`);
  await expect.poll(() => second.evaluate(() => localStorage.getItem('base44_access_token'))).toBeTruthy();
  secondWatch.takeCalls();
  await second.goto(`${server.url}/dashboard`);
  await expect(second.locator('a[href="/new-plan"]').first()).toBeVisible();
  await secondWatch.expectClean();
  await context.close();
});

test('reset a forgotten password through the app’s own pages and the link it mails', async ({ page }) => {
  const email = uniqueEmail('safereturn-reset');
  await createAppUser(server, app, email);
  const watch = watchBrowser(page, server);
  // The app routes /login itself, so a full page load of /login is its page, not ours.
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.locator('#email').fill(email);
  await page.locator('button[type="submit"]').click();
  const mail = await waitForMail(server.dataDir, email);
  // The app has its own /reset-password page: the mailed link goes there with `?token=`.
  const link = linkFrom(mail, 'token').url;
  expect(new URL(link).pathname).toBe('/reset-password');
  await page.goto(link);
  const newPassword = `${PASSWORD}-renewed`;
  await page.locator('#password').fill(newPassword);
  await page.locator('#confirm').fill(newPassword);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(`${server.url}/login`);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(newPassword);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(`${server.url}/`);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('base44_access_token'))).toBeTruthy();
  // Anonymous, the layout's auth.me() got 401 (caught by the app): the only refusals.
  const refused = watch.takeCalls().filter((call) => call.status >= 400);
  for (const call of refused) expect(`${call.path} ${call.status}`).toMatch(/\/entities\/User\/me 401$/);
});

test('the mail-API functions fail softly without their provider: a JSON error, no hang, the server unharmed', async () => {
  const call = (name: string, body: unknown) =>
    fetch(`${server.url}/api/apps/${app.appId}/functions/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const trip = await serviceApi<{ id: string }>(server, `/api/apps/${app.appId}/entities/TripPlan`, {
    method: 'POST',
    body: {
      primary_name: 'Alert Test',
      authority_contacts: [{ name: 'Ranger', email: 'ranger@example.test' }],
    },
  });
  const alert = await call('alertAuthorities', { tripId: trip.id, alerterName: 'Kim' });
  expect(alert.status).toBe(500);
  expect(await alert.json()).toEqual({ error: 'RESEND_API_KEY not configured' });
  const mail = await call('sendEmail', { to: 'a@example.test', subject: 'Hi', body: '<p>Hi</p>' });
  expect(mail.status).toBe(500);
  expect(await mail.json()).toEqual({ error: 'RESEND_API_KEY not configured' });
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
});
