import type { Frame, Page, Response } from '@playwright/test';

/**
 * openSite navigates and waits until the app has hydrated: the prerendered HTML shows at once, but the
 * page loads its script only after the first paint, and buttons act only after that.
 */
export async function openSite(page: Page, url: string): Promise<Response | null> {
  const response = await page.goto(url);
  await waitForHydration(page);
  return response;
}

/** waitForHydration resolves once the app marked the document as hydrated. */
export async function waitForHydration(target: Page | Frame): Promise<void> {
  await target.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}
