import { expect, forThisFile, test } from '../../support/test';
import { PASSWORD, uniqueEmail } from '../../support/auth-helpers';
import {
  createUserWithCli,
  expectBackSignedIn,
  loginUrl,
  openLogin,
  signInOnPage,
} from '../../support/login-page';
import type { RunningServer } from '../../support/server-process';

// The 404 page's Admin Note, for a real admin (made with the operator CLI) and a plain user.

let server: RunningServer;
test.beforeAll(async ({ sharedAuthServer }) => {
  server = forThisFile(sharedAuthServer);
});

for (const role of ['admin', 'user'] as const) {
  test(`a signed-in ${role} ${role === 'admin' ? 'sees' : 'does not see'} the Admin Note on a 404`, async ({
    page,
  }) => {
    const email = uniqueEmail(role);
    await createUserWithCli(server, { email, password: PASSWORD, role });
    await openLogin(page, loginUrl(server, '/royal/vault'));
    await signInOnPage(page, email, PASSWORD);
    await expectBackSignedIn(page, server, '/royal/vault');
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    if (role === 'admin') {
      await expect(page.getByText('Admin Note')).toBeVisible();
      await expect(
        page.getByText("This could mean that the AI hasn't implemented this page yet."),
      ).toBeVisible();
    } else {
      await expect(page.getByText('Admin Note')).toHaveCount(0);
    }
  });
}
