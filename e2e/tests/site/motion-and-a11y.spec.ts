import type { Page } from '@playwright/test';
import { expect, forThisFile, test } from '../../support/test';
import { axeViolations } from '../../support/axe';
import type { RunningServer } from '../../support/server-process';
import { openSite, waitForHydration } from '../../support/open-site';

let server: RunningServer;
test.beforeAll(async ({ sharedServer }) => {
  server = forThisFile(sharedServer);
});

const playStates = (page: Page) =>
  page.evaluate(() => [...new Set(document.getAnimations().map((animation) => animation.playState))]);

test('looping animations use the five durations and only transform/opacity', async ({ page }) => {
  await openSite(page, server.url);
  // The particles (and their animations) arrive once the page has loaded and is idle.
  await expect(page.locator('.particle')).toHaveCount(80);
  const durations = await page.evaluate(() =>
    [
      ...new Set(document.getAnimations().map((animation) => Number(animation.effect?.getTiming().duration))),
    ].sort((a, b) => a - b),
  );
  for (const duration of [4000, 6000, 8000, 15000, 20000]) expect(durations).toContain(duration);
  const properties = await page.evaluate(() => {
    const animated = new Set<string>();
    for (const animation of document.getAnimations()) {
      const effect = animation.effect as KeyframeEffect | null;
      for (const frame of effect?.getKeyframes() ?? []) {
        for (const key of Object.keys(frame)) {
          if (!['offset', 'easing', 'composite', 'computedOffset'].includes(key)) animated.add(key);
        }
      }
    }
    return [...animated];
  });
  expect(properties.every((property) => ['transform', 'opacity'].includes(property))).toBe(true);
});

test('the pause control stops every animation, and the choice is remembered', async ({ page }) => {
  await openSite(page, server.url);
  await expect(page.locator('.particle')).toHaveCount(80);
  expect(await playStates(page)).toContain('running');
  const pause = page.getByRole('button', { name: 'Pause animations' });
  await pause.click();
  await expect(page.getByRole('button', { name: 'Play animations' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => playStates(page)).toEqual(['paused']);
  await page.reload();
  await waitForHydration(page);
  await expect(page.locator('.particle')).toHaveCount(80);
  // The page was prerendered unpaused: once hydrated, the control says "paused" in its name, state and icon.
  const play = page.getByRole('button', { name: 'Play animations' });
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  await expect(play.locator('svg path')).toHaveAttribute('d', 'm7 4 13 8-13 8V4Z');
  await expect.poll(() => playStates(page)).toEqual(['paused']);
  await page.getByRole('button', { name: 'Play animations' }).click();
  await expect.poll(() => playStates(page)).toContain('running');
});

test('prefers-reduced-motion stops the animations', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openSite(page, server.url);
  expect(
    await page
      .locator('.particle')
      .first()
      .evaluate((node) => getComputedStyle(node).animationName),
  ).toBe('none');
  expect(await page.evaluate(() => document.getAnimations().length)).toBe(0);
});

for (const [width, height] of [
  [390, 844],
  [1440, 900],
] as const) {
  test(`Home has no WCAG 2.2 AA violations at ${width}×${height}`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openSite(page, server.url);
    await expect(page.locator('[data-hero-state="ready"] img')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
}

test('keyboard: skip link first, then the header controls', async ({ page }) => {
  await openSite(page, server.url);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});
