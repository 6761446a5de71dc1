// A bystander's reads while anonymous clients repeat an admitted `$regex` query (issue 18, item 5): the
// probe's attack was four `$regex` patterns in one `$or` over 2,000 records of 64 KB, repeated; PGlite
// timed out and restarted again and again and a bystander's reads failed. For each store (PGlite, and
// PostgreSQL when DATABASE_URL is set) the same data is attacked twice in one run: with the per-caller scan
// budget and the regex deadline out of the way (as before they existed) and with their defaults
// (ENTITY_REGEX_SCAN_MS_PER_MINUTE, ENTITY_REGEX_DEADLINE_MS), then with those defaults against 12 clients
// on 12 addresses (the probe's PostgreSQL pool starvation). A caller's regex requests run one at a time, and
// at most half the pool's (PGlite: one) across callers, in every mode (that has no setting).
// Reported: the bystander's success rate and p50/p99, and how the attacker's requests were answered.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AUTH_ENV, SERVICE_TOKEN } from '../../e2e/support/auth-helpers';
import { FIXTURE_PROJECT } from '../../e2e/support/entities-helpers';
import {
  REPO_ROOT,
  removeServerData,
  startServer,
  type DatabaseMode,
  type RunningServer,
} from '../../e2e/support/server-process';

const APP = '/api/apps/queen-solana/entities/Todo';
const ROWS = 2000;
const VALUE_CHARS = 64 * 1024;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ATTACKERS = 4;
const BYSTANDER_EVERY_MS = 50;
const GOALS = { successRate: 0.95, p99Ms: 500 };
const AUTH = { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' };

type Mode = 'off' | 'defaults' | 'defaults, 12 addresses';
/** How each mode attacks: connections, and how many client addresses (X-Forwarded-For) they come from. */
const ATTACKS: Record<Mode, { connections: number; addresses: number }> = {
  off: { connections: ATTACKERS, addresses: 1 },
  defaults: { connections: ATTACKERS, addresses: 1 },
  'defaults, 12 addresses': { connections: 12, addresses: 12 },
};

interface Result {
  store: DatabaseMode;
  mode: Mode;
  bystander: { requests: number; successRate: number; p50Ms: number; p99Ms: number };
  attacker: Record<string, number>;
}

const randomAb = (length: number) => {
  let text = '';
  while (text.length < length)
    text += Math.random().toString(2).slice(2).replaceAll('0', 'a').replaceAll('1', 'b');
  return text.slice(0, length);
};

async function seed(server: RunningServer): Promise<string> {
  const perBulk = 60;
  for (let done = 0; done < ROWS; done += perBulk) {
    const records = Array.from({ length: Math.min(perBulk, ROWS - done) }, (_, i) => ({
      title: `row ${done + i}`,
      description: randomAb(VALUE_CHARS),
    }));
    const response = await fetch(`${server.url}${APP}/bulk`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify(records),
    });
    if (response.status !== 201) throw new Error(`seed: ${response.status} ${await response.text()}`);
  }
  const kept = await fetch(`${server.url}${APP}`, {
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify({ title: 'bystander' }),
  });
  return ((await kept.json()) as { id: string }).id;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};

async function attack(
  server: RunningServer,
  bystanderId: string,
  mode: Mode,
): Promise<Omit<Result, 'store' | 'mode'>> {
  const until = performance.now() + SECONDS * 1000;
  const attacker: Record<string, number> = {};
  let sent = 0;
  // A fresh $ne each time, so the read cache never answers for the database.
  const attackUrl = () => {
    const query = {
      $or: Array.from({ length: 4 }, (_, i) => ({ description: { $regex: `abba${i}` } })),
      title: { $ne: `attack-${(sent += 1)}` },
    };
    return `${server.url}${APP}?q=${encodeURIComponent(JSON.stringify(query))}&limit=10`;
  };
  const { connections, addresses } = ATTACKS[mode];
  const loops = Array.from({ length: connections }, async (_, index) => {
    const headers = { 'x-forwarded-for': `10.0.0.${(index % addresses) + 1}` };
    while (performance.now() < until) {
      const status = await fetch(attackUrl(), { headers })
        .then(async (response) => {
          await response.arrayBuffer();
          return String(response.status);
        })
        .catch(() => 'error');
      attacker[status] = (attacker[status] ?? 0) + 1;
    }
  });
  const latencies: number[] = [];
  let ok = 0;
  let requests = 0;
  const list = `${server.url}${APP}?q=${encodeURIComponent(JSON.stringify({ title: 'bystander' }))}`;
  const bystander = (async () => {
    while (performance.now() < until) {
      for (const url of [`${server.url}${APP}/${bystanderId}`, list]) {
        const started = performance.now();
        const status = await fetch(url, { signal: AbortSignal.timeout(10_000) })
          .then(async (response) => {
            await response.arrayBuffer();
            return response.status;
          })
          .catch(() => 0);
        latencies.push(performance.now() - started);
        requests += 1;
        if (status === 200) ok += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, BYSTANDER_EVERY_MS));
    }
  })();
  await Promise.all([...loops, bystander]);
  return {
    bystander: {
      requests,
      successRate: ok / requests,
      p50Ms: Math.round(percentile(latencies, 0.5)),
      p99Ms: Math.round(percentile(latencies, 0.99)),
    },
    attacker,
  };
}

const results: Result[] = [];
const stores: DatabaseMode[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
for (const store of stores) {
  let data: Pick<RunningServer, 'dataDir' | 'databaseUrl'> | null = null;
  let bystanderId = '';
  for (const mode of ['off', 'defaults', 'defaults, 12 addresses'] as const) {
    const env = {
      PROJECT_DIR: FIXTURE_PROJECT,
      ...AUTH_ENV,
      LOG_LEVEL: 'warn',
      // The attackers' addresses come in X-Forwarded-For; the bystander has none (its own address).
      TRUST_PROXY: 'true',
      ...(mode === 'off'
        ? { ENTITY_REGEX_SCAN_MS_PER_MINUTE: '60000000', ENTITY_REGEX_DEADLINE_MS: '600000' }
        : {}),
    };
    const server = await startServer({
      env,
      keepData: true,
      database: store,
      ...(data ? (data.databaseUrl ? { databaseUrl: data.databaseUrl } : { dataDir: data.dataDir }) : {}),
    });
    try {
      if (!data) {
        console.log(`${store}: seeding ${ROWS} records of ${VALUE_CHARS / 1024} KB…`);
        bystanderId = await seed(server);
        data = server;
      }
      console.log(`${store}, ${mode}: ${SECONDS} s of attack…`);
      const measured = await attack(server, bystanderId, mode);
      results.push({ store, mode, ...measured });
      console.log(JSON.stringify(results.at(-1)));
    } finally {
      await server.stop();
    }
  }
  if (data) await removeServerData(data);
}

const row = (result: Result) => {
  const { bystander } = result;
  const attacker = Object.entries(result.attacker)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
  return `| ${result.store} | ${result.mode} | ${bystander.requests} | ${(bystander.successRate * 100).toFixed(1)} % | ${bystander.p50Ms} | ${bystander.p99Ms} | ${attacker} |`;
};
const markdown = `# Regex bystander (issue 18, item 5)

${new Date().toISOString()}, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(2)} at the end. One
anonymous client (${ATTACKERS} connections; in the last mode 12 clients from 12 addresses) repeats a 4-\`$regex\` \`$or\` (with a fresh
\`$ne\`, so no cache answers) over ${ROWS} records of ${VALUE_CHARS / 1024} KB for ${SECONDS} s; a bystander reads one record by id and
an exact-filter list every ${BYSTANDER_EVERY_MS} ms.
Goal: the bystander keeps ≥ ${GOALS.successRate * 100} % success and p99 ≤ ${GOALS.p99Ms} ms.

| store | scan budget and regex deadline | bystander requests | success | p50 ms | p99 ms | attacker answers |
| --- | --- | ---: | ---: | ---: | ---: | --- |
${results.map(row).join('\n')}
`;
const folder = join(REPO_ROOT, 'bench/results');
await mkdir(folder, { recursive: true });
await writeFile(join(folder, 'regex-bystander.json'), `${JSON.stringify(results, null, 2)}\n`);
await writeFile(join(folder, 'regex-bystander.md'), markdown);
console.log(markdown);
const failed = results.filter(
  (result) =>
    result.mode !== 'off' &&
    (result.bystander.successRate < GOALS.successRate || result.bystander.p99Ms > GOALS.p99Ms),
);
if (failed.length > 0) console.warn(`goal missed: ${failed.map((result) => result.store).join(', ')}`);
