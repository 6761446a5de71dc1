// Files throughput: upload (Core.UploadFile, multipart) and download (GET of the file URL) of one 20 MiB
// file through a real server process, per storage driver (disk, PostgreSQL, s3rver), in MiB/s, next to a
// bare disk copy of the same file as the machine's reference. PostgreSQL runs when DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createDatabase, dropDatabase } from '../../e2e/support/postgres';
import { startS3 } from '../../e2e/support/s3rver';
import { REPO_ROOT, startServer, type RunningServer } from '../../e2e/support/server-process';

const APP_ID = 'queen-solana';
const MIB = 1024 * 1024;
const FILE_BYTES = 20 * MIB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SERVER_ENV = { FILE_MAX_MB: '100', INTEGRATION_RATE_LIMIT_PER_MINUTE: '100000', LOG_LEVEL: 'warn' };

interface Row {
  driver: string;
  uploadMiBps: number;
  downloadMiBps: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const mibPerSecond = (bytes: number, startedAt: bigint) =>
  bytes / MIB / (Number(process.hrtime.bigint() - startedAt) / 1e9);

async function bareCopy(source: string, folder: string): Promise<number> {
  const runs: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const target = join(folder, `copy-${round}`);
    const startedAt = process.hrtime.bigint();
    await pipeline(createReadStream(source), createWriteStream(target));
    runs.push(mibPerSecond(FILE_BYTES, startedAt));
    await rm(target);
  }
  return median(runs);
}

const BOUNDARY = '----queen-bench-files';

/**
 * upload sends source as Core.UploadFile's multipart body with node:http, streamed from disk (fetch with
 * FormData costs the client several times more CPU, and the client shares the cores with the server).
 */
function upload(server: RunningServer, source: string): Promise<string> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return new Promise((resolveUrl, reject) => {
    const outgoing = request(
      `${server.url}/api/apps/${APP_ID}/integration-endpoints/Core/UploadFile`,
      {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': head.length + FILE_BYTES + tail.length,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          if (response.statusCode !== 200)
            reject(new Error(`upload answered ${response.statusCode} ${text}`));
          else resolveUrl((JSON.parse(text) as { file_url: string }).file_url);
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.write(head);
    const file = createReadStream(source);
    file.on('error', reject);
    file.on('end', () => outgoing.end(tail));
    file.pipe(outgoing, { end: false });
  });
}

/** download GETs url with node:http and counts the bytes. */
function download(url: string): Promise<number> {
  return new Promise((resolveBytes, reject) => {
    request(url, (response) => {
      let received = 0;
      response.on('data', (chunk: Buffer) => (received += chunk.length));
      response.on('end', () => resolveBytes(received));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function throughput(driver: string, server: RunningServer, source: string): Promise<Row> {
  const uploads: number[] = [];
  const downloads: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const startedAt = process.hrtime.bigint();
    const url = await upload(server, source);
    uploads.push(mibPerSecond(FILE_BYTES, startedAt));
    const readAt = process.hrtime.bigint();
    const received = await download(url);
    if (received !== FILE_BYTES) throw new Error(`${driver}: downloaded ${received} bytes`);
    downloads.push(mibPerSecond(FILE_BYTES, readAt));
  }
  const row = { driver, uploadMiBps: median(uploads), downloadMiBps: median(downloads) };
  console.log(
    `${driver}: upload ${row.uploadMiBps.toFixed(1)} MiB/s, download ${row.downloadMiBps.toFixed(1)} MiB/s`,
  );
  return row;
}

const folder = await mkdtemp(join(tmpdir(), 'queen-bench-files-'));
try {
  const source = join(folder, 'file.bin');
  await writeFile(source, randomBytes(FILE_BYTES));
  const bare = await bareCopy(source, folder);
  console.log(`bare disk copy: ${bare.toFixed(1)} MiB/s`);
  const rows: Row[] = [];

  const disk = await startServer({ env: SERVER_ENV, database: 'pglite' });
  try {
    rows.push(await throughput('disk (DATA_DIR/files, PGlite metadata)', disk, source));
  } finally {
    await disk.stop();
  }

  if (process.env.DATABASE_URL) {
    const database = await createDatabase();
    try {
      const postgres = await startServer({ env: SERVER_ENV, databaseUrl: database.url });
      try {
        rows.push(await throughput('postgres (1 MiB bytea chunks)', postgres, source));
      } finally {
        await postgres.stop();
      }
    } finally {
      await dropDatabase(database.name);
    }
  } else console.log('postgres: skipped (set DATABASE_URL to measure it)');

  const s3 = await startS3();
  try {
    const server = await startServer({ env: { ...SERVER_ENV, ...s3.env }, database: 'pglite' });
    try {
      rows.push(await throughput('s3 (s3rver 3.7.1 on local disk)', server, source));
    } finally {
      await server.stop();
    }
  } finally {
    await s3.close();
  }

  const report = {
    date: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length, loadAverage1m: loadavg()[0] },
    fileBytes: FILE_BYTES,
    rounds: ROUNDS,
    bareDiskCopyMiBps: bare,
    rows,
  };
  const markdown = [
    '# Files throughput',
    '',
    `${report.date} · Node ${process.version} · ${cpus().length} CPUs · load ${loadavg()[0]?.toFixed(2)} · one 20 MiB file, median of ${ROUNDS} rounds, client in the same machine`,
    '',
    '| storage | upload MiB/s | download MiB/s | upload / bare copy | download / bare copy |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| bare disk copy (fs streams, reference) | ${bare.toFixed(1)} | ${bare.toFixed(1)} | 1.00 | 1.00 |`,
    ...rows.map(
      (row) =>
        `| ${row.driver} | ${row.uploadMiBps.toFixed(1)} | ${row.downloadMiBps.toFixed(1)} | ${(row.uploadMiBps / bare).toFixed(2)} | ${(row.downloadMiBps / bare).toFixed(2)} |`,
    ),
    '',
    'Upload is Core.UploadFile (multipart, streamed: type sniffed, SHA-256 hashed, size-limited on the way);',
    'download is a GET of the returned file URL; the client is node:http in the bench process, on the same two',
    'cores as the server (and s3rver). The bare copy reads and writes the same file with fs streams.',
    '',
  ].join('\n');
  const results = join(REPO_ROOT, 'bench/results');
  await mkdir(results, { recursive: true });
  await writeFile(join(results, 'files-throughput.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(results, 'files-throughput.md'), markdown);
} finally {
  await rm(folder, { recursive: true, force: true });
}
