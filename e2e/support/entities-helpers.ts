import { connect } from 'node:net';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AUTH_ENV, type userClient } from './auth-helpers';
import { startServer, type StartOptions } from './server-process';

/** FIXTURE_PROJECT is the app project with Todo (open), Note (owner-only) and Secret (admin-only). */
export const FIXTURE_PROJECT = resolve(import.meta.dirname, '../fixtures/project/base44');

/**
 * startEntitiesServer starts a server on the fixture project with the auth test environment. The specs'
 * many `$regex` queries come from one address: their per-minute scan budget is set out of the way (the
 * budget's own test sets it).
 */
export function startEntitiesServer(options: StartOptions = {}) {
  return startServer({
    ...options,
    env: {
      PROJECT_DIR: FIXTURE_PROJECT,
      ...AUTH_ENV,
      ENTITY_REGEX_SCAN_MS_PER_MINUTE: '3600000',
      ...options.env,
    },
  });
}

/** brokenProject copies the fixture project and writes content to relativePath in the copy. */
export async function brokenProject(relativePath: string, content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'queen-project-'));
  await cp(FIXTURE_PROJECT, dir, { recursive: true });
  await writeFile(join(dir, relativePath), content);
  return dir;
}

/** entityOf returns the SDK handler for name (the SDK types it as possibly undefined). */
export function entityOf(client: Pick<ReturnType<typeof userClient>, 'entities'>, name: string) {
  const handler = client.entities[name];
  if (!handler) throw new Error(`the SDK has no handler for ${name}`);
  return handler;
}

/**
 * postOversized announces a JSON body of bytes bytes (Content-Length) and resolves with the status and body
 * text of the answer, without sending the body: a server that enforces its limit answers from the header
 * alone. It speaks HTTP over a plain socket, so a server that closes (or resets) right after answering
 * cannot turn the answer into a client-side EPIPE.
 */
export function postOversized(url: string, bytes: number): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  return new Promise((resolveAnswer, reject) => {
    let received = '';
    const socket = connect(Number(target.port), target.hostname, () => {
      socket.write(
        `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${bytes}\r\nConnection: close\r\n\r\n`,
      );
    });
    const finish = () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      if (status > 0) resolveAnswer({ status, text: received.slice(received.indexOf('\r\n\r\n') + 4) });
      else
        reject(
          new Error(`no HTTP answer to the oversized request: ${JSON.stringify(received.slice(0, 80))}`),
        );
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      // The answer is complete once its declared body has arrived.
      const length = /\r\ncontent-length: (\d+)/i.exec(received)?.[1];
      const head = received.indexOf('\r\n\r\n');
      if (length && head >= 0 && Buffer.byteLength(received.slice(head + 4)) >= Number(length)) finish();
    });
    socket.on('end', finish);
    socket.on('error', () => finish());
  });
}

/** longTodoText is ~70 KB of short words (more than a `$regex` reads), different for each row. */
export function longTodoText(row: number): string {
  return Array.from({ length: 20_000 }, (_, i) => ((i * 7919 + row) % 1296).toString(36)).join(' ');
}

/**
 * seedLongTodos stores rows anonymous Todos `seed <n>` with a long description each (20 per bulk), plus
 * fields: the data a costly `$regex` scans in the deadline specs.
 */
export async function seedLongTodos(
  server: { url: string },
  rows: number,
  fields: Record<string, unknown> = {},
): Promise<void> {
  const PER_BULK = 20;
  for (let first = 0; first < rows; first += PER_BULK) {
    const records = Array.from({ length: Math.min(PER_BULK, rows - first) }, (_, offset) => ({
      ...fields,
      title: `seed ${first + offset}`,
      description: longTodoText(first + offset),
    }));
    const response = await fetch(`${server.url}/api/apps/queen-solana/entities/Todo/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(records),
    });
    // Read whole: an unread body would hold its connection open at the server's shutdown.
    const text = await response.text();
    if (response.status >= 300) throw new Error(`seeding Todos: ${response.status} ${text.slice(0, 200)}`);
  }
}
