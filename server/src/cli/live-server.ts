// Whether a server runs on this DATA_DIR: then the CLI goes through its API, since PGlite admits one process.
import { readRuntimeInfo } from '../lib/runtime-file';

/** HEALTH_TIMEOUT_MS bounds the wait for a recorded server's /healthz (a hung one counts as not running). */
const HEALTH_TIMEOUT_MS = 3000;

/** LiveServer is a server answering on this DATA_DIR: where, and which app it hosts. */
export interface LiveServer {
  url: string;
  appId: string;
}

/** liveServerOn is the server DATA_DIR/server.json names, if its process lives and /healthz answers. */
export async function liveServerOn(dataDir: string): Promise<LiveServer | null> {
  const info = await readRuntimeInfo(dataDir);
  if (!info) return null;
  try {
    process.kill(info.pid, 0);
  } catch {
    return null;
  }
  const health = await fetch(`${info.url}/healthz`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) }).catch(
    () => null,
  );
  return health?.ok ? { url: info.url, appId: info.appId } : null;
}
