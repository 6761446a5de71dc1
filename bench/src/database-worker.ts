// What running PGlite in a worker thread costs: the store's get-by-id (the statement behind a cold
// `GET entities/<name>/<id>`) through the worker (as the server runs it) and through PGlite on the calling
// thread, on the same rows, alternating so that the shared machine's drift hits both alike. Hot reads come
// from the read cache and never reach the database, so they pay nothing for the worker.
//
//   npm run bench:database -w bench   (BENCH_SECONDS per run, default 3; BENCH_DB_ROWS, default 10000)
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Database } from '../../server/src/store/database';
import { createEntityRecordsStore } from '../../server/src/store/entity-records-store';
import { runMigrations } from '../../server/src/store/migrations';
import { openPgliteDatabase } from '../../server/src/store/pglite-database';
import { openPgliteWorkerDatabase } from '../../server/src/store/pglite-worker-database';
import { median } from './lib/stats';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROWS = Number(process.env.BENCH_DB_ROWS ?? 10_000);
const ROUNDS = 2;
const IN_FLIGHT = 16;
const APP = 'bench-app';
const ENTITY = 'Todo';
const REPO_ROOT = resolve(import.meta.dirname, '../..');

interface Engine {
  name: 'in-thread' | 'worker';
  db: Database;
  folder: string;
}

async function openEngine(name: Engine['name']): Promise<Engine> {
  const folder = await mkdtemp(join(tmpdir(), `queen-bench-${name}-`));
  const db =
    name === 'worker'
      ? await openPgliteWorkerDatabase(folder, { queryTimeoutMs: 60_000 })
      : await openPgliteDatabase(folder);
  await runMigrations(db);
  await db.query('INSERT INTO apps (id) VALUES ($1)', [APP]);
  return { name, db, folder };
}

const ids = Array.from({ length: ROWS }, () => randomUUID());

async function seed(engine: Engine): Promise<void> {
  const records = ids.map((id, index) => ({
    id,
    data: { title: `todo ${index}`, completed: index % 2 === 0, priority: (index % 5) + 1 },
    created_by: 'bench@example.test',
    created_by_id: null,
  }));
  await createEntityRecordsStore(engine.db).importMany(APP, ENTITY, records);
}

/** measure runs get-by-id with `inFlight` calls outstanding for SECONDS; returns calls/s and median µs. */
async function measure(engine: Engine, inFlight: number) {
  const store = createEntityRecordsStore(engine.db);
  const selection = { appId: APP, entity: ENTITY, rule: true as const };
  const latencies: number[] = [];
  let next = Math.floor(Math.random() * ROWS);
  const until = performance.now() + SECONDS * 1000;
  const lanes = Array.from({ length: inFlight }, async () => {
    while (performance.now() < until) {
      const id = ids[next++ % ROWS] as string;
      const started = performance.now();
      const row = await store.findOne(selection, id);
      latencies.push(performance.now() - started);
      if (!row) throw new Error(`record ${id} missing`);
    }
  });
  await Promise.all(lanes);
  return { perSecond: latencies.length / SECONDS, medianUs: median(latencies) * 1000 };
}

const engines = [await openEngine('in-thread'), await openEngine('worker')];
for (const engine of engines) await seed(engine);

type Mode = 'sequential' | 'concurrent';
const samples: Record<string, { perSecond: number[]; medianUs: number[] }> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ['sequential', 'concurrent'] as Mode[]) {
    for (const engine of round % 2 === 0 ? engines : [...engines].reverse()) {
      const result = await measure(engine, mode === 'sequential' ? 1 : IN_FLIGHT);
      const key = `${mode} ${engine.name}`;
      samples[key] ??= { perSecond: [], medianUs: [] };
      samples[key].perSecond.push(result.perSecond);
      samples[key].medianUs.push(result.medianUs);
      console.log(`${key}: ${Math.round(result.perSecond)}/s, median ${Math.round(result.medianUs)} µs`);
    }
  }
}
for (const engine of engines) {
  await engine.db.close();
  await rm(engine.folder, { recursive: true, force: true });
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const rows = (['sequential', 'concurrent'] as Mode[]).map((mode) => {
  const inThread = samples[`${mode} in-thread`];
  const worker = samples[`${mode} worker`];
  if (!inThread || !worker) throw new Error('missing samples');
  const threadRate = mean(inThread.perSecond);
  const workerRate = mean(worker.perSecond);
  return {
    mode: mode === 'sequential' ? 'one at a time' : `${IN_FLIGHT} in flight`,
    inThreadPerSecond: Math.round(threadRate),
    workerPerSecond: Math.round(workerRate),
    inThreadMedianUs: Math.round(mean(inThread.medianUs)),
    workerMedianUs: Math.round(mean(worker.medianUs)),
    workerThroughputRatio: Number((workerRate / threadRate).toFixed(3)),
  };
});

const date = new Date().toISOString();
const markdown = [
  '# PGlite in a worker thread: get-by-id',
  '',
  `${date} · Node ${process.version} · ${cpus().length} cores · load ${loadavg()[0]?.toFixed(2)} · ${ROWS} rows · ${ROUNDS} rounds × ${SECONDS} s per engine and mode`,
  '',
  '| mode | in-thread calls/s | worker calls/s | worker / in-thread | in-thread median µs | worker median µs |',
  '| ---- | ----------------: | -------------: | -----------------: | ------------------: | ---------------: |',
  ...rows.map(
    (row) =>
      `| ${row.mode} | ${row.inThreadPerSecond} | ${row.workerPerSecond} | ${row.workerThroughputRatio} | ${row.inThreadMedianUs} | ${row.workerMedianUs} |`,
  ),
  '',
  'The statement of a cold `GET entities/Todo/<id>` (the store’s findOne), called directly: no HTTP. In the',
  'server the worker also frees the main thread while PGlite works, so HTTP parsing and the statement overlap.',
  'Hot reads are answered by the read cache and do not reach the database.',
  '',
];
const results = join(REPO_ROOT, 'bench/results');
await mkdir(results, { recursive: true });
await writeFile(
  join(results, 'database-worker.json'),
  `${JSON.stringify({ date, machine: { node: process.version, cpus: cpus().length, loadAverage1m: loadavg()[0] }, rows: ROWS, secondsPerRun: SECONDS, results: rows }, null, 2)}\n`,
);
await writeFile(join(results, 'database-worker.md'), markdown.join('\n'));
console.log(`\n${markdown.join('\n')}`);
