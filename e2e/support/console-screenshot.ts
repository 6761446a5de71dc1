import type { Page } from '@playwright/test';
import { REPO_ROOT } from './server-process';

/** consoleScreenshot saves docs/console/<name>.png for docs/console.md when CONSOLE_SCREENSHOTS=1 (not in CI). */
export async function consoleScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.CONSOLE_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: `${REPO_ROOT}/docs/console/${name}.png` });
}
