// `npm run cli -- logs [--function NAME] [--limit N] [--follow]`: backend function calls from the app logs,
// oldest first, one header line per call and its output indented. With a live server on DATA_DIR they are
// read through its API (`GET /api/app-logs/{app}?type=function`, the service role), else by the same app
// logs service on the database. `--follow` polls every second and prints new calls until Ctrl-C.
import { z } from 'zod';
import { parseInput } from '../../lib/validation';
import { FetchLogsQuerySchema } from '../../schemas/app-logs';
import { callAdminApi } from '../admin-client';
import type { CliContext } from '../cli-context';
import { withOfflineServices } from '../offline-services';

/** FOLLOW_EVERY_MS is how often --follow asks for new calls. */
const FOLLOW_EVERY_MS = 1000;
/** FOLLOW_OVERLAP_MS: each poll looks this far behind the newest call seen (calls end out of order). */
const FOLLOW_OVERLAP_MS = 30_000;
/** FOLLOW_LIMIT is the most calls one poll of --follow reads. */
const FOLLOW_LIMIT = 1000;

/** FunctionCallSchema is one call as the app logs list it (services/app-logs' functionCallView). */
const FunctionCallSchema = z.object({
  id: z.string(),
  function: z.string(),
  request_id: z.string().nullable(),
  trigger: z.string(),
  status: z.number(),
  duration_ms: z.number(),
  output: z.array(z.object({ stream: z.string(), line: z.string() })),
  output_dropped: z.number(),
  created_date: z.string(),
});
const FunctionCallsAnswerSchema = z.object({ items: z.array(FunctionCallSchema) });

/** FunctionCall is one call as the CLI prints it. */
export type FunctionCall = z.infer<typeof FunctionCallSchema>;

/** LogsQuery is one read: a function's calls (else every function's) from a time on, newest first. */
interface LogsQuery {
  function?: string | undefined;
  from?: string | undefined;
  limit: number;
}

/** formatCall is a call as the CLI prints it: a header line, then each output line indented. */
export function formatCall(item: FunctionCall): string {
  const via = item.trigger === 'http' ? `request ${item.request_id ?? '-'}` : item.trigger;
  const lines = [`${item.created_date} ${item.function} ${item.status} ${item.duration_ms} ms (${via})`];
  for (const { stream, line } of item.output)
    lines.push(`  ${stream === 'stderr' ? 'err' : 'out'} | ${line}`);
  if (item.output_dropped > 0) lines.push(`  … ${item.output_dropped} more lines not kept`);
  return lines.join('\n');
}

/** printCalls prints what read answers, and with follow keeps printing new calls until Ctrl-C. */
async function printCalls(
  read: (query: LogsQuery) => Promise<FunctionCall[]>,
  options: {
    functionName: string | undefined;
    limit: number;
    follow: boolean;
    stop?: AbortSignal | undefined;
  },
  print: (text: string) => void,
): Promise<void> {
  const seen = new Set<string>();
  let newest = '';
  const show = (items: FunctionCall[]) => {
    // Newest first from the API: printed oldest first, each once.
    for (const item of [...items].reverse()) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      if (item.created_date > newest) newest = item.created_date;
      print(formatCall(item));
    }
  };
  show(await read({ function: options.functionName, limit: options.limit }));
  if (!options.follow) return;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
    const from = newest ? new Date(Date.parse(newest) - FOLLOW_OVERLAP_MS).toISOString() : undefined;
    show(await read({ function: options.functionName, from, limit: FOLLOW_LIMIT }));
  }
}

/** logsCommand prints calls (and with follow keeps printing new ones until the process is stopped). */
export async function logsCommand(
  context: CliContext,
  options: { functionName: string | undefined; limit: number; follow: boolean },
): Promise<void> {
  const appId = context.config.APP_ID;
  const { server } = context;
  if (server) {
    const path = `/api/app-logs/${encodeURIComponent(appId)}`;
    const read = async (query: LogsQuery) => {
      const params = {
        type: 'function',
        limit: String(query.limit),
        ...(query.function ? { function: query.function } : {}),
        ...(query.from ? { from: query.from } : {}),
      };
      return (await callAdminApi(server, { method: 'GET', path, query: params }, FunctionCallsAnswerSchema))
        .items;
    };
    return printCalls(read, options, context.print);
  }
  return withOfflineServices(context, async (offline) => {
    const appLogs = offline.appLogs();
    const read = async (query: LogsQuery) => {
      // The query as the route checks it, so both ways read the same calls.
      const checked = parseInput(FetchLogsQuerySchema, { type: 'function', ...query });
      return (await appLogs.fetchFunctionLogs(appId, checked)).items;
    };
    return printCalls(read, options, context.print);
  });
}
