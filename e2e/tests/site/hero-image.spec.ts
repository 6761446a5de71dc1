import { expect, test } from '../../support/test';
import { startFailingImageProvider } from '../../support/image-provider-double';
import { startServer } from '../../support/server-process';
import { openSite } from '../../support/open-site';

// The hero image: spinner while generating, the image when ready, 'Loading Queen...' when generation fails.

test('spinner while generating, then the image; later visits get it in the HTML', async ({
  page,
  request,
}) => {
  const server = await startServer();
  try {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/integration-endpoints/Core/GenerateImage', async (route) => {
      await released;
      await route.continue();
    });
    await openSite(page, server.url);
    const slot = page.locator('.hero-art');
    await expect(slot).toHaveAttribute('data-hero-state', 'generating');
    await expect(slot.getByRole('status')).toBeAttached();
    release();
    await expect(slot).toHaveAttribute('data-hero-state', 'ready');
    const image = slot.locator('img');
    await expect(image).toHaveAttribute('src', /\/media\/[a-f0-9]{64}\.svg$/);
    await expect.poll(() => image.evaluate((node: HTMLImageElement) => node.naturalWidth)).toBeGreaterThan(0);

    const html = await (await request.get(server.url)).text();
    expect(html).toContain('data-hero-state="ready"');
    expect(html).toMatch(/<img src="\/media\/[a-f0-9]{64}\.svg"/);
  } finally {
    await server.stop();
  }
});

test("'Loading Queen...' when the image provider fails; the failure is only logged", async ({ page }) => {
  const provider = await startFailingImageProvider();
  const server = await startServer({ env: { IMAGE_PROVIDER: provider.url } });
  try {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await openSite(page, server.url);
    await expect(page.locator('.hero-art')).toHaveAttribute('data-hero-state', 'empty');
    await expect(page.getByText('Loading Queen...')).toBeVisible();
    expect(provider.requests).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  } finally {
    await server.stop();
    await provider.close();
  }
});
