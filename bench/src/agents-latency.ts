// Agents latency: a real server process (PGlite) on the agents fixture project (e2e/fixtures/agents: Task,
// agent task_helper) with the scripted OpenAI-compatible double (e2e/support/openai-double.ts, in this
// process) as its provider; users talk to the agent through the official SDK, as an app does. Measured:
// (a) first token: the time from `agents.addMessage` (its HTTP request sent) to the first pushed assistant
//     text received by the same client's `subscribeToConversation` (socket), against the double's own time
//     to first token for the very request the server sent it (replayed straight to the double, streamed).
//     One user, turns one after another, SAMPLES of each, alternating; overhead = p50 − direct p50, goal
//     ≤ 20 ms;
// (b) CONVERSATIONS users at once, each with its own conversation, socket and one message that makes the
//     agent call create_task: every turn must end `success` with its tool call `success` (in the pushes and
//     as stored), every Task must exist, and nothing may fail. An app runs at most 16 LLM calls at once per
//     instance (MAX_APP_CALLS_IN_FLIGHT): the other steps wait for a slot, they do not fail.
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { agentsEnv, type Conversation } from '../../e2e/support/agents-helpers';
import { SERVICE_TOKEN, createUser, uniqueEmail, userClient } from '../../e2e/support/auth-helpers';
import { startOpenAiDouble } from '../../e2e/support/openai-double';
import { DEFAULT_APP_ID } from '../../e2e/support/sdk-client';
import { startServer } from '../../e2e/support/server-process';
import { oneAddressLimits } from './lib/socket-fleet';
import { writeResults } from './lib/report';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const TURNS_PER_CONVERSATION = 10;
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100);
const GOAL_MS = 20;
const PROMPT = 'How many tasks are still open on my list today?';
const TURN_TIMEOUT_MS = 60_000;

type Client = ReturnType<typeof userClient>;

/** TurnTimes are one turn's times from the send, and the conversation as its final push left it. */
interface TurnTimes {
  /** answeredMs is addMessage's answer (the message stored, the turn started). */
  answeredMs: number;
  firstTokenMs: number;
  endMs: number;
  final: Conversation;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => value.toFixed(2);
const sleep = (wait: number) => new Promise((resolve) => setTimeout(resolve, wait));

// SDK 0.8.50 prints every socket's `connect`: a hundred of them would bury the report.
const print = console.log.bind(console);
console.log = (...args: unknown[]) => {
  if (args[0] !== 'connect') print(...args);
};

/**
 * Subscription follows one conversation through the SDK's subscribeToConversation and resolves turns: a
 * turn's first token is the first push carrying text of an assistant message the conversation did not have
 * before; its end is the push of that turn's last assistant message no longer running.
 */
class Subscription {
  private seen = new Set<string>();
  private onUpdate: ((conversation: Conversation, at: number) => void) | null = null;
  readonly unsubscribe: () => void;

  constructor(
    private client: Client,
    readonly conversation: Conversation,
  ) {
    this.unsubscribe = client.agents.subscribeToConversation(conversation.id, (update) =>
      this.onUpdate?.(update as unknown as Conversation, performance.now()),
    );
  }

  /**
   * turn sends content and resolves when the agent's final message is pushed and addMessage has answered;
   * its times count from the send.
   */
  async turn(content: string): Promise<TurnTimes> {
    let firstTokenMs: number | null = null;
    let ended: (end: { endMs: number; final: Conversation }) => void = () => undefined;
    const pushed = new Promise<{ endMs: number; final: Conversation }>((resolve) => (ended = resolve));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no final push within ${TURN_TIMEOUT_MS} ms`)),
        TURN_TIMEOUT_MS,
      );
    });
    const sentAt = performance.now();
    this.onUpdate = (update, at) => {
      const fresh = update.messages.filter(
        (message) => message.role === 'assistant' && !this.seen.has(message.id),
      );
      if (
        firstTokenMs === null &&
        fresh.some((message) => typeof message.content === 'string' && message.content)
      )
        firstTokenMs = at - sentAt;
      const last = update.messages.at(-1);
      if (last?.role !== 'assistant' || this.seen.has(last.id) || last.status === 'running') return;
      if (last.tool_calls.some((call) => call.status === 'running')) return;
      this.onUpdate = null;
      for (const message of update.messages) this.seen.add(message.id);
      ended({ endMs: at - sentAt, final: update });
    };
    const answered = this.client.agents
      .addMessage(this.conversation as never, { role: 'user', content })
      .then(() => performance.now() - sentAt);
    try {
      const [answeredMs, end] = await Promise.race([Promise.all([answered, pushed]), timeout]);
      return { firstTokenMs: firstTokenMs ?? end.endMs, answeredMs, ...end };
    } finally {
      clearTimeout(timer);
      this.onUpdate = null;
    }
  }
}

/** subscribe creates a task_helper conversation for client, subscribes, and waits for the socket's join. */
async function subscribe(client: Client, joinMs = 500): Promise<Subscription> {
  const conversation = (await client.agents.createConversation({
    agent_name: 'task_helper',
  })) as unknown as Conversation;
  const subscription = new Subscription(client, conversation);
  await sleep(joinMs);
  return subscription;
}

const directAgent = new Agent({ keepAlive: true });

/** directFirstToken streams body straight to the double and resolves at its first chunk carrying text. */
function directFirstToken(url: URL, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sentAt = performance.now();
    let firstMs: number | null = null;
    let buffer = '';
    const outgoing = request(
      url,
      {
        method: 'POST',
        agent: directAgent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (firstMs !== null) return;
          buffer += chunk;
          const lines = buffer.split('\n');
          buffer = lines.pop() ?? '';
          for (const line of lines) {
            if (!line.startsWith('data: {')) continue;
            const parsed = JSON.parse(line.slice('data: '.length)) as {
              choices: Array<{ delta?: { content?: string } }>;
            };
            if (parsed.choices[0]?.delta?.content) {
              firstMs = performance.now() - sentAt;
              break;
            }
          }
        });
        response.on('end', () =>
          firstMs === null
            ? reject(new Error(`no text from the double (${response.statusCode})`))
            : resolve(firstMs),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const double = await startOpenAiDouble();
const server = await startServer({
  env: {
    ...agentsEnv(double.baseUrl),
    LOG_LEVEL: 'warn',
    LLM_DAILY_TOKEN_BUDGET: '1000000000000',
    LLM_USER_DAILY_TOKENS: '1000000000',
    LLM_IP_DAILY_TOKENS: '1000000000',
    INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000000',
    INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: '1000000',
    // Every client connects from this one address: caps far above what the run opens.
    ...oneAddressLimits(50_000),
  },
  database: 'pglite',
});
const loadBefore = loadavg()[0] ?? Number.NaN;
const clients: Client[] = [];
const clientOf = (token: string) => {
  const client = userClient(server, token);
  clients.push(client);
  return client;
};

interface Latency {
  answered: number[];
  throughServer: number[];
  direct: number[];
  turnEnd: number[];
}
const latency: Latency = { answered: [], throughServer: [], direct: [], turnEnd: [] };
let latencyErrors = 0;
interface Concurrent {
  conversations: number;
  totalMs: number;
  endMs: number[];
  errors: string[];
  tasksStored: number;
}
let concurrent: Concurrent;

try {
  // (a) First token, one user, turns one after another.
  const completions = new URL(`${double.baseUrl}/chat/completions`);
  const alice = await createUser(server, { email: uniqueEmail('bench-agents') });
  const asAlice = clientOf(alice.token);
  console.log('(a) warm-up');
  const warm = await subscribe(asAlice);
  for (let turn = 0; turn < TURNS_PER_CONVERSATION; turn += 1) {
    await warm.turn(PROMPT);
    await directFirstToken(completions, JSON.stringify(double.chats().at(-1)));
  }
  warm.unsubscribe();
  console.log(`(a) ${SAMPLES} turns through the server, each followed by its request replayed to the double`);
  while (latency.throughServer.length < SAMPLES) {
    // A fresh conversation every few turns: long ones would make each push (its newest 50 messages) grow.
    const subscription = await subscribe(asAlice);
    // Its first turn is not measured: it also shows the socket joined the room.
    await subscription.turn(PROMPT);
    for (let turn = 0; turn < TURNS_PER_CONVERSATION && latency.throughServer.length < SAMPLES; turn += 1) {
      try {
        const result = await subscription.turn(PROMPT);
        if (result.final.messages.at(-1)?.status !== 'success') throw new Error('turn ended in error');
        const sent = JSON.stringify(double.chats().at(-1));
        latency.answered.push(result.answeredMs);
        latency.throughServer.push(result.firstTokenMs);
        latency.turnEnd.push(result.endMs);
        latency.direct.push(await directFirstToken(completions, sent));
      } catch (error) {
        latencyErrors += 1;
        console.error(`(a) ${(error as Error).message}`);
      }
    }
    subscription.unsubscribe();
  }
  const p = (values: number[]) =>
    `p50 ${ms(percentile(values, 50))} ms, p95 ${ms(percentile(values, 95))} ms`;
  console.log(`  through the server: ${p(latency.throughServer)}; the double alone: ${p(latency.direct)}`);

  // (b) CONVERSATIONS users at once, one message with a tool call each.
  console.log(`(b) ${CONVERSATIONS} users: accounts, conversations and sockets`);
  const users: Array<{ email: string; token: string }> = [];
  for (let batch = 0; batch < CONVERSATIONS; batch += 10) {
    const made = await Promise.all(
      Array.from({ length: Math.min(10, CONVERSATIONS - batch) }, async () => {
        const email = uniqueEmail('bench-agents-many');
        return { email, token: (await createUser(server, { email })).token };
      }),
    );
    users.push(...made);
  }
  const many = users.map((user) => clientOf(user.token));
  const subscriptions = await Promise.all(many.map((client) => subscribe(client, 0)));
  await sleep(2_000); // every socket joins its room
  console.log(`(b) ${CONVERSATIONS} messages at once`);
  const errors: string[] = [];
  const endMs: number[] = [];
  const startedAt = performance.now();
  const outcomes = await Promise.allSettled(
    subscriptions.map((subscription, index) =>
      subscription.turn(`Add [call:create_task {"title":"bench task ${index}"}]`),
    ),
  );
  const totalMs = performance.now() - startedAt;
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.status === 'rejected') {
      errors.push(`#${index}: ${(outcome.reason as Error).message}`);
      continue;
    }
    endMs.push(outcome.value.endMs);
    const pushed = outcome.value.final.messages;
    const calls = pushed.flatMap((message) => message.tool_calls);
    if (pushed.at(-1)?.status !== 'success')
      errors.push(`#${index}: pushed final status ${pushed.at(-1)?.status}`);
    if (calls.length !== 1 || calls[0]?.name !== 'create_task' || calls[0]?.status !== 'success')
      errors.push(
        `#${index}: pushed tool calls ${JSON.stringify(calls.map((call) => [call.name, call.status]))}`,
      );
  }
  // As stored: each conversation ended in success with its tool call, and each Task is its user's.
  await Promise.all(
    subscriptions.map(async (subscription, index) => {
      const stored = (await many[index]?.agents.getConversation(
        subscription.conversation.id,
      )) as unknown as Conversation;
      const calls = stored.messages.flatMap((message) => message.tool_calls);
      if (stored.messages.at(-1)?.status !== 'success' || calls[0]?.status !== 'success')
        errors.push(`#${index}: stored ${stored.messages.at(-1)?.status}, tool call ${calls[0]?.status}`);
    }),
  );
  const tasks = await fetch(`${server.url}/api/apps/${DEFAULT_APP_ID}/entities/Task?limit=1000`, {
    headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
  });
  const stored = (await tasks.json()) as Array<{ title: string; created_by: string }>;
  const tasksStored = users.filter((user, index) =>
    stored.some((task) => task.title === `bench task ${index}` && task.created_by === user.email),
  ).length;
  if (tasksStored !== CONVERSATIONS)
    errors.push(`${tasksStored} of ${CONVERSATIONS} Tasks stored as their users'`);
  for (const subscription of subscriptions) subscription.unsubscribe();
  concurrent = { conversations: CONVERSATIONS, totalMs, endMs, errors, tasksStored };
  console.log(
    `  all ended in ${ms(totalMs)} ms (each: ${p(endMs)}), ${errors.length} errors${errors.length ? `:\n  ${errors.slice(0, 10).join('\n  ')}` : ''}`,
  );
} finally {
  for (const client of clients) client.cleanup();
  directAgent.destroy();
  await server.stop();
  await double.close();
}

const p50 = (values: number[]) => percentile(values, 50);
const p95 = (values: number[]) => percentile(values, 95);
const overheadMs = p50(latency.throughServer) - p50(latency.direct);
const overheadPass = overheadMs <= GOAL_MS && latencyErrors === 0;
const concurrentPass = concurrent.errors.length === 0;
const pass = overheadPass && concurrentPass;
const report = {
  date: new Date().toISOString(),
  machine: {
    node: process.version,
    cpus: cpus().length,
    loadAverage1mBefore: loadBefore,
    loadAverage1mAfter: loadavg()[0],
  },
  firstToken: {
    samples: latency.throughServer.length,
    errors: latencyErrors,
    throughServer: { p50Ms: p50(latency.throughServer), p95Ms: p95(latency.throughServer) },
    direct: { p50Ms: p50(latency.direct), p95Ms: p95(latency.direct) },
    answered: { p50Ms: p50(latency.answered), p95Ms: p95(latency.answered) },
    turnEnd: { p50Ms: p50(latency.turnEnd), p95Ms: p95(latency.turnEnd) },
    overheadMs,
    goal: { metric: 'p50 addMessage → first pushed token, minus the double’s own p50', ms: GOAL_MS },
    pass: overheadPass,
  },
  concurrent: {
    conversations: concurrent.conversations,
    errors: concurrent.errors,
    tasksStored: concurrent.tasksStored,
    totalMs: concurrent.totalMs,
    turnEnd: { p50Ms: p50(concurrent.endMs), p95Ms: p95(concurrent.endMs) },
    pass: concurrentPass,
  },
};
const markdown = [
  '# Agents latency',
  '',
  `${report.date} · Node ${process.version} · ${cpus().length} CPUs · load ${ms(loadBefore)} → ${ms(loadavg()[0] ?? Number.NaN)} · server (PGlite) in one process; the SDK clients and the scripted LLM double in another`,
  '',
  `## (a) First token: ${latency.throughServer.length} turns of one user, one after another`,
  '',
  `**Overhead at p50: ${ms(overheadMs)} ms** · goal ≤ ${GOAL_MS} ms: ${overheadPass ? 'pass' : 'FAIL'} · ${latencyErrors} errors`,
  '',
  '| path | p50 ms | p95 ms |',
  '| --- | ---: | ---: |',
  `| \`addMessage\` → first pushed token (\`subscribeToConversation\`) | ${ms(p50(latency.throughServer))} | ${ms(p95(latency.throughServer))} |`,
  `| the double alone: its request replayed, streamed → first token | ${ms(p50(latency.direct))} | ${ms(p95(latency.direct))} |`,
  `| \`addMessage\` → its HTTP answer (message stored, turn started) | ${ms(p50(latency.answered))} | ${ms(p95(latency.answered))} |`,
  `| \`addMessage\` → final message pushed | ${ms(p50(latency.turnEnd))} | ${ms(p95(latency.turnEnd))} |`,
  '',
  `## (b) ${CONVERSATIONS} users at once, one message with a tool call each`,
  '',
  `**${concurrent.errors.length} errors** (must be 0): ${concurrentPass ? 'pass' : 'FAIL'} · all turns ended in ${ms(concurrent.totalMs)} ms · each turn p50 ${ms(p50(concurrent.endMs))} ms, p95 ${ms(p95(concurrent.endMs))} ms · ${concurrent.tasksStored} Tasks stored`,
  '',
  ...concurrent.errors.slice(0, 20).map((error) => `- ${error}`),
  '',
  'Each user subscribes to its own conversation, then all send `Add [call:create_task {…}]` at once: two LLM',
  'steps per turn (the tool call, then the answer), at most 16 at once per app (MAX_APP_CALLS_IN_FLIGHT), the',
  'others waiting for a slot. A turn counts when its final message is pushed with status success and its one',
  'tool call create_task success, both also as stored, and its Task is stored as its user’s.',
  '',
].join('\n');
await writeResults('agents-latency', report, markdown);
console.log(
  `agents: first-token overhead p50 ${ms(overheadMs)} ms (goal ≤ ${GOAL_MS} ms), ${CONVERSATIONS} at once: ${concurrent.errors.length} errors: ${pass ? 'pass' : 'FAIL'}`,
);
if (!pass) process.exitCode = 1;
