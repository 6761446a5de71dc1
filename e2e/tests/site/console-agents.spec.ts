import type { Page } from '@playwright/test';
import { expect, test } from '../../support/test';
import { agentsEnv, ask, startConversation } from '../../support/agents-helpers';
import {
  api,
  createUser,
  PASSWORD,
  SERVICE_TOKEN,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { axeViolations } from '../../support/axe';
import { consoleScreenshot } from '../../support/console-screenshot';
import { startOpenAiDouble, type OpenAiDouble } from '../../support/openai-double';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// The console's Agents page (issue 24) on a real server running the agents fixture against the scripted LLM
// double: every agent with its instructions and tools; a test chat whose turn completes a tool call, its
// steps arriving over the live stream; the conversation browser reading a user's conversation with its tool
// calls and usage; loading, empty and error states, keyboard, axe at 1440 and 390 px; non-admins refused.

test.describe.configure({ mode: 'serial' });

let double: OpenAiDouble;
let server: RunningServer;
const admin = { email: '', token: '' };
const member = { email: '', token: '', id: '' };
const AGENTS = `/api/apps/${DEFAULT_APP_ID}/admin/agents`;
let memberConversation = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  double = await startOpenAiDouble();
  server = await startServer({ env: agentsEnv(double.baseUrl) });
  admin.email = uniqueEmail('agents-admin');
  admin.token = (await createUser(server, { email: admin.email, role: 'admin' })).token;
  member.email = uniqueEmail('agents-member');
  const created = await createUser(server, { email: member.email });
  member.token = created.token;
  member.id = created.user.id;
  // A user's own conversation, with one tool call, for the browser.
  const client = userClient(server, member.token);
  try {
    const conversation = await startConversation(client, { topic: 'chores' });
    memberConversation = conversation.id;
    await ask(client, conversation, 'Anything on my list? [call:read_task {}]');
  } finally {
    client.cleanup();
  }
});

test.afterAll(async () => {
  await server?.stop();
  await double?.close();
});

async function openAgents(page: Page, email: string, width = 1440) {
  await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
  await page.goto(`${server.url}/_/agents`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function tasksOf(email: string): Promise<{ title: string; created_by: string }[]> {
  const rows = await api(server, `/api/apps/${DEFAULT_APP_ID}/entities/Task`, {
    method: 'GET',
    token: SERVICE_TOKEN,
  });
  return (rows.json as unknown as { title: string; created_by: string }[]).filter(
    (row) => row.created_by === email,
  );
}

test('each agent shows its instructions and tools; the test chat completes a tool call, by keyboard', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openAgents(page, admin.email);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Agents', level: 1 })).toBeFocused();
  const agent = main.getByRole('list', { name: 'Agents' }).getByRole('listitem').first();
  await expect(agent.getByRole('heading', { name: 'task_helper' })).toBeVisible();
  await expect(agent).toContainText("You manage the user's tasks. Be brief.");
  const tools = agent.getByRole('list', { name: 'Tools of task_helper' });
  await expect(tools).toContainText('Task: create, read, update, delete');
  await expect(tools).toContainText('Announcement: create');
  await expect(tools).toContainText('function whoami (Tells who the user is)');
  await expect(agent).toContainText('tone');
  expect(await axeViolations(page), 'agents at 1440').toEqual([]);

  // Keyboard only: open the chat, type, send.
  await agent.getByRole('button', { name: 'Test chat with task_helper' }).focus();
  await page.keyboard.press('Enter');
  const message = agent.getByLabel('Message');
  await message.focus();
  await page.keyboard.type('Add milk [call:create_task {"title":"Buy milk from the console"}]');
  await page.keyboard.press('Tab');
  await expect(agent.getByRole('button', { name: 'Send' })).toBeFocused();
  await page.keyboard.press('Enter');

  const chat = agent.getByRole('list', { name: 'Test chat with task_helper' });
  const call = chat.getByTestId('tool-call');
  await expect(call).toContainText('create_task', { timeout: 20_000 });
  await expect(call.getByTestId('tool-call-status')).toHaveText('success', { timeout: 20_000 });
  await expect(chat.getByRole('listitem').last()).toContainText('tool said:', { timeout: 20_000 });
  await expect(chat).toContainText('12 prompt + 8 completion tokens');
  // The results, read again once the turn ended, are whole: the stored record.
  await call.getByText('Arguments and results').click();
  await expect(call).toContainText('"title":"Buy milk from the console"');
  // The tool ran as the admin, against the database.
  expect(await tasksOf(admin.email)).toEqual([
    expect.objectContaining({ title: 'Buy milk from the console' }),
  ]);
  expect(await axeViolations(page), 'agents test chat at 1440').toEqual([]);
  await consoleScreenshot(page, 'agents');
});

test("the conversation browser shows any user's conversation read-only, with tool calls and usage, at 390 px", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openAgents(page, admin.email, 390);
  const main = page.getByRole('main');
  // The admin's own test chat is marked as one.
  await expect(main.getByRole('row', { name: /console test/ })).toBeVisible();
  // Empty: a user without conversations.
  await main.getByLabel('User (email)').fill('nobody@example.test');
  await main.getByRole('button', { name: 'Show' }).click();
  await expect(main.getByText('No conversations match.')).toBeVisible();

  await main.getByLabel('User (email)').fill(member.email.toUpperCase());
  await main.getByRole('button', { name: 'Show' }).click();
  const row = main.getByRole('row', { name: new RegExp(member.email.replace(/[.+]/g, '\\$&')) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('task_helper');
  await row
    .getByRole('button', { name: `open the conversation of ${member.email} with task_helper` })
    .click();
  const view = main.getByRole('region', { name: 'Conversation', exact: true });
  const messages = view.getByRole('list', { name: 'Messages' });
  await expect(messages).toContainText('Anything on my list?');
  await expect(messages.getByTestId('tool-call')).toContainText('read_task');
  await expect(messages.getByTestId('tool-call-status')).toHaveText('success');
  await expect(messages).toContainText('12 prompt + 8 completion tokens');
  // Read-only: nothing to write with.
  await expect(view.getByRole('textbox')).toHaveCount(0);
  await expect(view.getByRole('button', { name: 'Send' })).toHaveCount(0);
  expect(await axeViolations(page), 'agents at 390').toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('loading fails: the page says why and tries again', async ({ page }) => {
  await page.route('**/admin/agents', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down for a moment"}' }),
  );
  await openAgents(page, admin.email);
  const main = page.getByRole('main');
  await expect(main.getByRole('alert')).toContainText('down for a moment');
  await page.unroute('**/admin/agents');
  await main.getByRole('button', { name: 'Try again' }).click();
  await expect(main.getByRole('heading', { name: 'task_helper' })).toBeVisible();
});

test("bad input is a 4xx; users' conversations take no console messages; a non-admin gets 403s", async ({
  page,
}) => {
  const as = (token: string, path: string, body?: unknown) =>
    api(server, `${AGENTS}${path}`, body === undefined ? { method: 'GET', token } : { token, body });
  expect((await as(admin.token, '/conversations?before=nonsense')).status).toBe(400);
  expect((await as(admin.token, '/conversations?limit=1000')).status).toBe(400);
  expect((await as(admin.token, '/conversations/nope')).status).toBe(404);
  expect((await as(admin.token, '/conversations/nope/live')).status).toBe(404);
  expect((await as(admin.token, '/nobody/test-conversations', {})).status).toBe(404);
  expect((await as(admin.token, '/Bad%20Name/test-conversations', {})).status).toBe(400);
  const test = await as(admin.token, '/task_helper/test-conversations', {});
  expect(test.status).toBe(200);
  const testId = String(test.json.id);
  expect(test.json.metadata).toEqual({ console_test: true });
  const messages = `/conversations/${testId}/test-messages`;
  expect((await as(admin.token, messages, { content: 'x'.repeat(4_001) })).status).toBe(400);
  expect((await as(admin.token, messages, { content: '   ' })).status).toBe(400);
  expect((await as(admin.token, messages, {})).status).toBe(400);
  // A user's conversation is read-only here.
  const theirs = await as(admin.token, `/conversations/${memberConversation}/test-messages`, {
    content: 'hi',
  });
  expect(theirs.status).toBe(409);
  // Paging: one at a time, the cursor leads to the next.
  const first = await as(admin.token, '/conversations?limit=1');
  const next = String(first.json.next);
  const second = await as(admin.token, `/conversations?limit=1&before=${encodeURIComponent(next)}`);
  expect((second.json.items as { id: string }[])[0]?.id).not.toBe(
    (first.json.items as { id: string }[])[0]?.id,
  );

  for (const [path, body] of [
    ['', undefined],
    ['/conversations', undefined],
    [`/conversations/${memberConversation}`, undefined],
    [`/conversations/${memberConversation}/live`, undefined],
    ['/task_helper/test-conversations', {}],
    [messages, { content: 'hi' }],
  ] as const) {
    expect((await as(member.token, path, body)).status, path).toBe(403);
  }
  expect((await api(server, AGENTS, { method: 'GET' })).status).toBe(401);
  await openAgents(page, member.email);
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Test chat' })).toHaveCount(0);
});
