// camp-planner (late-2025 template: the SDK's serverUrl, given here by `?server_url=` so one build serves
// any port; no appBaseUrl): a private app whose NavigationTracker logs each page with appLogs.logUserInApp,
// whose documents are UploadPrivateFile uploads shown through CreateFileSignedUrl, whose pages list trips, gear
// and documents, and whose photo scan recognizes gear with InvokeLLM's file_urls.
import { expect, test } from '../../support/test';
import { TINY_PNG } from '../../support/openai-images-double';
import { PASSWORD, uniqueEmail } from '../../support/auth-helpers';
import {
  createAppUser,
  prepareRealApp,
  serviceApi,
  startRealAppServer,
  type PreparedApp,
} from '../../support/real-apps';
import { expectOnlySignInRefusals, signInThroughLogin, watchBrowser } from '../../support/real-apps-browser';

let app: PreparedApp;
let server: Awaited<ReturnType<typeof startRealAppServer>>;

test.beforeAll(async () => {
  test.setTimeout(15 * 60_000); // a cold run installs the app first
  app = await prepareRealApp('camp-planner');
  server = await startRealAppServer(app, { APP_VISIBILITY: 'private_with_login' });
});

test.afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

// The smallest valid PDF: the app accepts .pdf, .jpg, .png, .gif, .webp.
const PDF = Buffer.from(
  '%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

test('sign in, visit every page, upload a private document, add gear; page views are logged', async ({
  page,
}) => {
  const watch = watchBrowser(page, server);
  const email = uniqueEmail('camp');
  await createAppUser(server, app, email);

  await page.goto(`${server.url}/?server_url=${encodeURIComponent(server.url)}`);
  await signInThroughLogin(page, server, email, PASSWORD);
  expectOnlySignInRefusals(watch.takeCalls());

  for (const pageName of ['CampingTrips', 'Shed', 'Profile', 'Documents']) {
    await page.goto(`${server.url}/${pageName}`);
    await page.waitForLoadState('networkidle');
  }

  // Documents: "+" → Upload Document → a PDF → stored privately, its record keeps the file_uri.
  // The app's own language switcher (fixed, top right) covers the "+" button: open it from the keyboard.
  await page.locator('button:has(svg.lucide-plus)').first().focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Upload Document' }).click();
  await page
    .locator('input#file')
    .setInputFiles({ name: 'permit.pdf', mimeType: 'application/pdf', buffer: PDF });
  // Its card then asks for a signed URL (CreateFileSignedUrl) to show the file.
  const signing = page.waitForResponse((response) => response.url().endsWith('/Core/CreateFileSignedUrl'));
  await page.getByRole('dialog').getByRole('button', { name: 'Upload Document' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  const documents = await serviceApi<Array<{ name: string; file_url: string }>>(
    server,
    `/api/apps/${app.appId}/entities/Document`,
  );
  expect(documents).toMatchObject([{ name: 'permit.pdf' }]);
  expect(documents[0]?.file_url).toMatch(/./);
  expect(watch.calls.map((call) => `${call.path} ${call.status}`)).toContain(
    `/api/apps/${app.appId}/integration-endpoints/Core/UploadPrivateFile 200`,
  );
  const signed = await signing;
  expect(signed.status()).toBe(200);
  const { signed_url: signedUrl } = (await signed.json()) as { signed_url: string };
  const file = await fetch(new URL(signedUrl, server.url));
  expect(file.status).toBe(200);
  expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
  await page.waitForLoadState('networkidle');
  // The README's picture of a fixture app served by us: `REAL_APPS_SCREENSHOT=../docs/… npx playwright test …`.
  if (process.env.REAL_APPS_SCREENSHOT) await page.screenshot({ path: process.env.REAL_APPS_SCREENSHOT });

  // Shed: "+" → add gear by hand → an Equipment record of its own.
  await page.goto(`${server.url}/Shed`);
  await page.locator('button:has(svg.lucide-plus)').first().focus();
  await page.keyboard.press('Enter');
  await page
    .getByRole('menuitem')
    .filter({ has: page.locator('svg.lucide-plus') })
    .click();
  await page.locator('input#name').fill('Big Red Tent');
  await page.locator('#notes').fill('four seasons');
  await page.getByRole('dialog').locator('button[type="submit"]').click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByText('Big Red Tent').first()).toBeVisible();
  const gear = await serviceApi<Array<{ name: string; type: string; notes: string; created_by: string }>>(
    server,
    `/api/apps/${app.appId}/entities/Equipment`,
  );
  expect(gear).toMatchObject([
    { name: 'Big Red Tent', type: 'tents', notes: 'four seasons', created_by: email },
  ]);

  // Shed: "+" → Scan Photo → a photo, used as it is → Recognize: the photo is uploaded, InvokeLLM reads it
  // (file_urls; the model gets it as a data URL) and the gear form opens filled with what it answered.
  await page.locator('button:has(svg.lucide-plus)').first().focus();
  await page.keyboard.press('Enter');
  await page
    .getByRole('menuitem')
    .filter({ has: page.locator('svg.lucide-camera') })
    .click();
  await page.getByRole('dialog').locator('input[type="file"]').setInputFiles({
    name: 'tent.png',
    mimeType: 'image/png',
    buffer: TINY_PNG,
  });
  await page.getByRole('button', { name: 'Use Original' }).click();
  await page.getByRole('button', { name: 'Recognize Equipment' }).click();
  await expect(page.locator('input#name')).toHaveValue('text');
  const sent = JSON.stringify(server.llm.chats().at(-1)?.messages);
  expect(sent).toContain('data:image/png;base64,');
  expect(sent).not.toContain(server.url);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await expect
    .poll(async () => {
      const logs = await serviceApi<{ items: Array<{ page: string }> }>(server, `/api/app-logs/${app.appId}`);
      return [...new Set(logs.items.map((item) => item.page))].sort();
    })
    .toEqual(['CampingTrips', 'Documents', 'Profile', 'Shed']);
  await watch.expectClean();
});

test('exportExpenses (Deno, npm:jspdf) answers the signed-in user with a PDF of the trip’s expenses', async () => {
  test.setTimeout(180_000); // the first call fetches jspdf into the shared Deno cache
  const email = uniqueEmail('camp-pdf');
  await createAppUser(server, app, email);
  const login = await fetch(`${server.url}/api/apps/${app.appId}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${server.url}/api/apps/${app.appId}/entities/Trip`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Lake Weekend', location: 'Lake Tahoe', start_date: '2026-07-01' }),
  });
  expect(created.status).toBe(201);
  const trip = (await created.json()) as { id: string };
  const expenses = [
    { description: 'Firewood', category: 'supplies', amount: 12.5, paid_by_name: 'Ann', date: '2026-07-01' },
    { description: 'Campsite fee', category: 'campsite_fees', amount: 40, split_between: ['a', 'b'] },
  ];
  const pdf = await fetch(`${server.url}/api/apps/${app.appId}/functions/exportExpenses`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ tripId: trip.id, expenses }),
  });
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  const bytes = Buffer.from(await pdf.arrayBuffer());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(1000);

  // Anonymous: the function's own 401 (auth.me has no user), passed through.
  const anonymous = await fetch(`${server.url}/api/apps/${app.appId}/functions/exportExpenses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tripId: trip.id }),
  });
  expect(anonymous.status).toBeGreaterThanOrEqual(400);
});
