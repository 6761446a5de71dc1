import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/test';
import { waitForHydration } from '../../support/open-site';
import { startServer, type RunningServer } from '../../support/server-process';

// The site inside an iframe on another origin (as the app builder embeds it): the parent hears about
// every URL change, never with a token in it, and about errors except HTTP 402 ones.

interface HostMessage {
  type: string;
  url?: string;
  error?: { title: string; details: string; componentName: string | null };
}

let server: RunningServer;
let host: Server;
let hostUrl: string;

test.beforeAll(async () => {
  host = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>host</title><script>
      window.received = [];
      window.addEventListener('message', (event) => window.received.push(event.data));
    </script><iframe title="app" width="1200" height="800" src="${server.url}/?access_token=secret-token-123&ref=ad#about"></iframe>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
  // The host is an allowed frame ancestor (CSP frame-ancestors), as the app builder is.
  server = await startServer({ env: { FRAME_ANCESTORS: new URL(hostUrl).origin } });
});

test.afterAll(async () => {
  await server.stop();
  await new Promise((resolve) => host.close(resolve));
});

const received = (page: Page) =>
  page.evaluate(() => (window as unknown as { received: HostMessage[] }).received);

async function appFrame(page: Page) {
  await page.goto(hostUrl);
  await expect.poll(() => page.frames().length).toBe(2);
  const frame = page.frames().find((candidate) => candidate.url().startsWith(server.url));
  if (!frame) throw new Error('app frame not found');
  await waitForHydration(frame);
  return frame;
}

test('app_changed_url on load and on every location change, without access_token', async ({ page }) => {
  const frame = await appFrame(page);
  await expect
    .poll(async () => (await received(page)).filter((message) => message.type === 'app_changed_url').length)
    .toBeGreaterThan(0);
  expect(frame.url()).not.toContain('access_token');
  await frame
    .getByRole('navigation', { name: 'Sections', exact: true })
    .getByRole('link', { name: 'Roadmap' })
    .click();
  await expect
    .poll(async () => (await received(page)).map((message) => message.url))
    .toContain(`${server.url}/?ref=ad#roadmap`);
  for (const message of await received(page)) {
    if (message.type === 'app_changed_url') expect(message.url).not.toContain('secret-token-123');
  }
  expect(JSON.stringify(await received(page))).not.toContain('secret-token-123');
});

test('app_error for window errors and unhandled rejections, but not for HTTP 402', async ({ page }) => {
  const frame = await appFrame(page);
  await frame.evaluate(() => {
    setTimeout(() => {
      throw new Error('boom from a timer');
    });
    void Promise.reject(Object.assign(new Error('payment required'), { status: 402 }));
    void Promise.reject(new Error('rejected on purpose'));
  });
  await expect
    .poll(async () => (await received(page)).filter((message) => message.type === 'app_error').length)
    .toBe(2);
  const errors = (await received(page)).filter((message) => message.type === 'app_error');
  const titles = errors.map((message) => message.error?.title ?? '');
  expect(titles.some((title) => title.includes('boom from a timer'))).toBe(true);
  expect(titles.some((title) => title.includes('rejected on purpose'))).toBe(true);
  expect(titles.some((title) => title.includes('payment required'))).toBe(false);
  for (const message of errors) {
    expect(typeof message.error?.details).toBe('string');
    expect(message.error).toHaveProperty('componentName');
  }
});
