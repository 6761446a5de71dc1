import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** RUNTIME_FILE is the file, inside DATA_DIR, a running server describes itself in. */
export const RUNTIME_FILE = 'server.json';

/** RuntimeInfo says which process serves a data folder and where. */
export interface RuntimeInfo {
  pid: number;
  url: string;
  appId: string;
}

/** writeRuntimeInfo records the running server so the CLI goes through it instead of opening the database. */
export async function writeRuntimeInfo(dataDir: string, info: RuntimeInfo): Promise<void> {
  await writeFile(join(dataDir, RUNTIME_FILE), `${JSON.stringify(info)}\n`, { mode: 0o600 });
}

/** removeRuntimeInfo deletes the record on shutdown, if it is still this process's. */
export async function removeRuntimeInfo(dataDir: string, pid: number): Promise<void> {
  const info = await readRuntimeInfo(dataDir);
  if (info?.pid === pid) await rm(join(dataDir, RUNTIME_FILE), { force: true });
}

/** readRuntimeInfo returns the recorded server, or null when there is none or it is unreadable. */
export async function readRuntimeInfo(dataDir: string): Promise<RuntimeInfo | null> {
  try {
    const parsed = JSON.parse(await readFile(join(dataDir, RUNTIME_FILE), 'utf8')) as Partial<RuntimeInfo>;
    if (
      typeof parsed.pid !== 'number' ||
      typeof parsed.url !== 'string' ||
      typeof parsed.appId !== 'string'
    ) {
      return null;
    }
    return { pid: parsed.pid, url: parsed.url, appId: parsed.appId };
  } catch {
    return null;
  }
}
