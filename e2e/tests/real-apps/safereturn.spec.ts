// safereturn (2026 template, same origin): the app's own email/password pages (register → OTP from the mail
// → verify → setToken; log in; forgot → the mailed link to its own /reset-password → log in), the
// dashboard's TripPlan list and its "I'm Back" (Core.SendEmail to the contacts), the profile's updateMe with
// custom User fields and photo (a public upload), the new-plan form (InvokeLLM finds the agency; the Deno
// function submitTripPlan files the plan as the service role), and the family portal, whose anonymous call
// of the backend function getTripPublic reads the trip as the service role (Deno).
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/test';
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

/** signInThroughAppPage signs a user in on the app's own /login page. */
async function signInThroughAppPage(page: Page, email: string): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(`${server.url}/`);
}

test('file a trip plan: the agency step asks InvokeLLM, filing runs submitTripPlan (Deno) as the service role', async ({
  page,
}) => {
  const email = uniqueEmail('safereturn-plan');
  await createAppUser(server, app, email);
  await signInThroughAppPage(page, email);
  const watch = watchBrowser(page, server);
  await page.goto(`${server.url}/new-plan`);
  const next = (label: string) => page.getByRole('button', { name: `Continue to ${label} →` }).click();
  await page.getByPlaceholder('e.g. Crater Lake National Park, Oregon').fill('Zion National Park, Utah');
  await next('Route');
  await next('People');
  await page.getByPlaceholder('Full name').first().fill('Plan Walker');
  await next('Contacts');
  await page.getByPlaceholder('Jane Doe').fill('Kin Walker');
  await page.getByPlaceholder('jane@email.com').fill(uniqueEmail('safereturn-kin'));
  for (const label of ['Vehicle', 'Gear', 'Medical', 'Agency']) await next(label);
  // The agency lookup is on by default: arriving at the step asks InvokeLLM with response_json_schema
  // (the provider double answers it) and shows the agency.
  const llmStatuses = () =>
    watch.calls
      .filter((call) => call.path.endsWith('/integration-endpoints/Core/InvokeLLM'))
      .map((c) => c.status);
  await expect.poll(llmStatuses).toEqual([200]);
  await expect(page.getByText('Identified Agency')).toBeVisible();
  await next('Confirm & File');
  await page.getByRole('button', { name: /I understand that if I do not return/ }).click();
  await page.getByRole('button', { name: 'Confirm & File Trip Plan' }).click();
  await page.waitForURL(/\/confirmation\?id=/, { timeout: 60_000 });

  const id = new URL(page.url()).searchParams.get('id') ?? '';
  const plan = await serviceApi<{ primary_name?: string; park_name?: string; status?: string }>(
    server,
    `/api/apps/${app.appId}/entities/TripPlan/${id}`,
  );
  expect(plan).toMatchObject({
    primary_name: 'Plan Walker',
    park_name: 'Zion National Park, Utah',
    status: 'active',
  });
  const contacts = await serviceApi<Array<{ contact_name: string }>>(
    server,
    `/api/apps/${app.appId}/entities/EmergencyContact?q=${encodeURIComponent(JSON.stringify({ trip_plan_id: id }))}`,
  );
  expect(contacts.map((contact) => contact.contact_name)).toEqual(['Kin Walker']);
  // Offline, the functions that post to outside services (Zapier, Resend) answer their own errors, which
  // the app catches: those are the only failing calls, and submitTripPlan succeeded.
  expect(watch.pageErrors).toEqual([]);
  const calls = watch.takeCalls();
  const failing = calls.filter(
    (call) => call.status >= 400 && !/\/functions\/(sendToZapier|sendEmail)$/.test(call.path),
  );
  expect(failing.map((call) => `${call.method} ${call.path} → ${call.status} ${call.body}`)).toEqual([]);
  expect(
    calls.filter((call) => call.path.endsWith('/functions/submitTripPlan')).map((c) => c.status),
  ).toEqual([200]);
});

test('“I’m Back” on the dashboard mails the trip’s emergency contact through Core.SendEmail', async ({
  page,
}) => {
  const traveler = uniqueEmail('safereturn-traveler');
  const kin = uniqueEmail('safereturn-kin');
  await createAppUser(server, app, traveler);
  // As on the hosted platform, SendEmail reaches users of the app: the contact has an account.
  await createAppUser(server, app, kin);
  await signInThroughAppPage(page, traveler);
  const token = await page.evaluate(() => localStorage.getItem('base44_access_token'));
  const createAsTraveler = async (entity: string, body: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/api/apps/${app.appId}/entities/${entity}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.ok, `${entity}: ${response.status}`).toBe(true);
    return (await response.json()) as { id: string };
  };
  const plan = await createAsTraveler('TripPlan', {
    primary_name: 'Walker',
    park_name: 'Zion',
    status: 'active',
    expected_return_datetime: new Date(Date.now() + 86_400_000).toISOString(),
  });
  await createAsTraveler('EmergencyContact', {
    trip_plan_id: plan.id,
    contact_name: 'Kin',
    contact_email: kin,
  });

  const watch = watchBrowser(page, server);
  await page.goto(`${server.url}/dashboard`);
  await page
    .getByRole('button', { name: /Walker/ })
    .first()
    .click();
  await page
    .getByRole('button', { name: 'I’m Back' })
    .or(page.getByRole('button', { name: "I'm Back" }))
    .click();
  const mail = await waitForMail(server.dataDir, kin);
  expect(mail.text.replace(/=\r?\n/g, '')).toContain('Walker has safely returned from Zion');
  await watch.expectClean();
});
