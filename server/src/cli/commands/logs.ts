// `npm run cli -- logs [--function NAME] [--limit N] [--follow]`: backend function calls from the app logs,
// oldest first, one header line per call and its output indented. With a live server on DATA_DIR they are
// read through its API (`GET /api/app-logs/{app}?type=function`, the service role), else from the database.
// `--follow` polls every second and prints new calls until Ctrl-C.
import type { ServerConfig } from '../../config/server-env';
import type { ServerSecrets } from '../../lib/secrets-file';
import type { Database } from '../../store/database';
import { createFunctionLogsStore } from '../../store/function-logs-store';
import { openPlatformDatabase } from '../../platform/platform';
import { functionCallView } from '../../services/app-logs/app-logs-service';

const USAGE = 'Usage: npm run cli -- logs [--function <name>] [--limit <n>] [--follow]';
/** FOLLOW_EVERY_MS is how often --follow asks for new calls. */
const FOLLOW_EVERY_MS = 1000;
/** FOLLOW_OVERLAP_MS: each poll looks this far behind the newest call seen (calls end out of order). */
const FOLLOW_OVERLAP_MS = 30_000;

/** FunctionLogItem is one call as fetchLogs answers it (the same view the service builds). */
export type FunctionLogItem = ReturnType<typeof functionCallView>;

/** formatCall is a call as the CLI prints it: a header line, then each output line indented. */
export function formatCall(item: FunctionLogItem): string {
  const via = item.trigger === 'http' ? `request ${item.request_id ?? '-'}` : item.trigger;
  const lines = [`${item.created_date} ${item.function} ${item.status} ${item.duration_ms} ms (${via})`];
  for (const { stream, line } of item.output)
    lines.push(`  ${stream === 'stderr' ? 'err' : 'out'} | ${line}`);
  if (item.output_dropped > 0) lines.push(`  … ${item.output_dropped} more lines not kept`);
  return lines.join('\n');
}

type Fetch = (query: { function?: string; from?: string; limit: number }) => Promise<FunctionLogItem[]>;

function viaServer(url: string, config: ServerConfig, serviceToken: string): Fetch {
  return async (query) => {
    const params = new URLSearchParams({ type: 'function', limit: String(query.limit) });
    if (query.function) params.set('function', query.function);
    if (query.from) params.set('from', query.from);
    const response = await fetch(`${url}/api/app-logs/${encodeURIComponent(config.APP_ID)}?${params}`, {
      headers: { authorization: `Bearer ${serviceToken}` },
    });
    const body = (await response.json().catch(() => ({}))) as { items?: FunctionLogItem[]; message?: string };
    if (response.status === 401 || response.status === 403) {
      throw new Error(
        `The server at ${url} refused the service token: if it was started with SERVICE_TOKEN, run the CLI with the same SERVICE_TOKEN (and APP_ID).`,
      );
    }
    if (!response.ok) throw new Error(`${response.status}: ${String(body.message ?? 'request failed')}`);
    return body.items ?? [];
  };
}

function fromDatabase(db: Database, config: ServerConfig): Fetch {
  const store = createFunctionLogsStore(db);
  return async (query) => {
    const rows = await store.list(
      {
        appId: config.APP_ID,
        functionName: query.function,
        from: query.from ?? '-infinity',
        to: 'infinity',
      },
      query.limit,
      0,
    );
    return rows.map(functionCallView);
  };
}

/** logsCommand prints calls (and with follow keeps printing new ones until the process is stopped). */
export async function logsCommand(input: {
  config: ServerConfig;
  secrets: ServerSecrets;
  liveServer: string | null;
  values: { function?: string | undefined; limit?: string | undefined; follow?: boolean | undefined };
  print: (text: string) => void;
  /** stop ends --follow (tests); default never (Ctrl-C). */
  stop?: AbortSignal;
}): Promise<void> {
  const { config, values, print } = input;
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new Error(`--limit must be 1–1000\n${USAGE}`);
  let db: Database | null = null;
  let read: Fetch;
  if (input.liveServer) read = viaServer(input.liveServer, config, input.secrets.serviceToken);
  else {
    db = (await openPlatformDatabase(config)).db;
    read = fromDatabase(db, config);
  }
  const name = values.function ? { function: values.function } : {};
  try {
    const seen = new Set<string>();
    let newest = '';
    const show = (items: FunctionLogItem[]) => {
      // Newest first from the API: printed oldest first, each once.
      for (const item of [...items].reverse()) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        if (item.created_date > newest) newest = item.created_date;
        print(formatCall(item));
      }
    };
    show(await read({ ...name, limit }));
    if (!values.follow) return;
    while (!input.stop?.aborted) {
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
      const from = newest ? new Date(Date.parse(newest) - FOLLOW_OVERLAP_MS).toISOString() : undefined;
      show(await read({ ...name, ...(from ? { from } : {}), limit: 1000 }));
    }
  } finally {
    await db?.close();
  }
}
