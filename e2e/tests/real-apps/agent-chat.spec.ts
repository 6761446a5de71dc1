// agent-chat (e2e/fixtures/agent-chat-app, this repository's own): the chat panel generated apps put in front
// of an agent, written as they write it (the SDK's client made in one place with `serverUrl: ''`, sign-in
// with loginViaEmailPassword, createConversation, subscribeToConversation rendering `data.messages`,
// addMessage on Send), built with the workspace's Vite and served by us with the agents fixture project
// (Task, agent task_helper) and the scripted LLM double.
import { expect, test } from '../../support/test';
import { AGENTS_PROJECT } from '../../support/agents-helpers';
import { PASSWORD, uniqueEmail } from '../../support/auth-helpers';
import {
  createAppUser,
  prepareRepoApp,
  serviceApi,
  startRealAppServer,
  type PreparedApp,
} from '../../support/real-apps';
import { watchBrowser } from '../../support/real-apps-browser';

let app: PreparedApp;
let server: Awaited<ReturnType<typeof startRealAppServer>>;

test.beforeAll(async () => {
  app = await prepareRepoApp('agent-chat-app', { appId: 'agent-chat-app', projectDir: AGENTS_PROJECT });
  server = await startRealAppServer(app);
});

test.afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

test("the chat panel sends a message and shows the user's message, the agent's tool call and its reply", async ({
  page,
}) => {
  const watch = watchBrowser(page, server);
  const email = uniqueEmail('agent-chat');
  await createAppUser(server, app, email);

  await page.goto(server.url);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  // The loading indicator may be shown for a few frames only (the double answers at once): the page notes it.
  await page.evaluate(() => {
    const seen = window as unknown as { loadingShown?: boolean };
    new MutationObserver(() => {
      if (document.querySelector('[role="status"]')) seen.loadingShown = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  const content = 'Add [call:create_task {"title":"Buy milk"}]';
  await page.getByLabel('Message').fill(content);
  const send = page.getByRole('button', { name: 'Send' });
  await expect(send).toBeEnabled(); // the conversation exists
  await send.click();

  const messages = page.locator('.messages > li');
  await expect(messages.first()).toHaveAttribute('data-role', 'user');
  await expect(messages.first()).toHaveText(content);
  await expect(page.locator('.tool-call')).toHaveText('create_task: success');
  await expect(messages.last()).toHaveAttribute('data-role', 'assistant');
  await expect(messages.last()).toHaveText(/^tool said: \{.*"title":"Buy milk"/);
  await expect(page.getByRole('status')).toBeHidden();
  expect(await page.evaluate(() => (window as unknown as { loadingShown?: boolean }).loadingShown)).toBe(
    true,
  );
  await expect(page.getByLabel('Message')).toBeEnabled();

  // The tool ran as the signed-in user: the Task is theirs.
  const tasks = await serviceApi<Array<{ title: string; created_by: string }>>(
    server,
    `/api/apps/${app.appId}/entities/Task`,
  );
  expect(tasks).toMatchObject([{ title: 'Buy milk', created_by: email }]);
  await watch.expectClean();
});
