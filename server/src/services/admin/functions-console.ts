// The console's Functions page: each function with its last 24 h (calls, error rate, p50/p95 from the
// function logs), its automations and schedules, a call with a JSON body as the admin or as a chosen user
// (the SDK route's own service call, with that user's token as the caller's), and "run now" of a schedule
// (the runner's own service-role call, audited).
import { Readable } from 'node:stream';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { FetchLogsQuerySchema } from '../../schemas/app-logs';
import type { FunctionStatsStore } from '../../store/function-stats-store';
import type { UserRow } from '../../store/users-store';
import type { AppLogsService } from '../app-logs/app-logs-service';
import type { AuditActor, AuditLog } from '../audit/audit-log';
import type { FunctionsService } from '../functions/functions-service';
import type { AppAccess } from '../identity/app-access';

/** BODY_SHOWN is how much of a function's answer the console shows (the rest is cut, and said so). */
const BODY_SHOWN = 64 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface FunctionsConsoleDeps {
  appId: string;
  functions: FunctionsService;
  stats: FunctionStatsStore;
  appLogs: Pick<AppLogsService, 'fetchFunctionLogs' | 'flush'>;
  access: Pick<AppAccess, 'userPrincipal'>;
  issueToken: (user: UserRow) => Promise<string>;
  audit: AuditLog;
}

/** InvokeAs is who the console's call is made as: the admin themselves, or a user by id. */
export type InvokeAs = { admin: UserRow | null; userId?: string | undefined };

/** readBounded reads a body up to max bytes (the rest is drained and dropped). */
async function readBounded(body: Readable, max: number): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    if (size < max) chunks.push(buffer.subarray(0, max - size));
    else truncated = true;
    size += buffer.length;
    if (size > max) truncated = true;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated };
}

/** createFunctionsConsole returns the Functions page's reads and actions; see the file comment. */
export function createFunctionsConsole(deps: FunctionsConsoleDeps) {
  const { appId, functions } = deps;

  /** tokenFor is the bearer the call carries: the chosen user's, else the admin's (none for the service role). */
  async function tokenFor(as: InvokeAs): Promise<string | null> {
    if (as.userId === undefined) return as.admin ? deps.issueToken(as.admin) : null;
    const principal = await deps.access.userPrincipal(appId, as.userId);
    if (principal.kind === 'invalid') throw new NotFoundError(`User ${as.userId} not found`);
    if (principal.kind !== 'user') throw new ForbiddenError('This account is disabled');
    return deps.issueToken(principal.user);
  }

  return {
    /** list is every function with its last 24 h and its automations, schedules and their last runs. */
    async list() {
      const since = new Date(Date.now() - DAY_MS).toISOString();
      const [stats, schedules] = await Promise.all([
        deps.stats.stats(appId, since),
        deps.stats.schedules(appId),
      ]);
      const defs = functions.definitions().sort((a, b) => a.name.localeCompare(b.name));
      return Promise.all(
        defs.map(async (def) => {
          const day = stats.find((row) => row.function_name === def.name);
          const runs = def.automations.length > 0 ? await deps.stats.automationRuns(appId, def.name, 5) : [];
          return {
            name: def.name,
            calls: day?.calls ?? 0,
            error_rate: day && day.calls > 0 ? day.errors / day.calls : null,
            p50_ms: day?.p50_ms ?? null,
            p95_ms: day?.p95_ms ?? null,
            last_status: day?.last_status ?? null,
            last_at: day?.last_at ?? null,
            automations: def.automations.map((automation) => {
              const schedule = schedules.find(
                (row) => row.function_name === def.name && row.automation_name === automation.name,
              );
              return {
                name: automation.name,
                type: automation.type,
                is_active: automation.is_active,
                definition: automation as Record<string, unknown>,
                next_run_at: schedule?.next_run_at ?? null,
                last_run_at: schedule?.last_run_at ?? null,
                runs: schedule?.runs ?? 0,
              };
            }),
            last_runs: runs,
          };
        }),
      );
    },

    /**
     * invoke POSTs body to name as the SDK's `functions.invoke` would for that caller, and answers the status,
     * headers, body (bounded) and the call's output as its log stores it (redacted), once recorded.
     */
    async invoke(name: string, body: unknown, as: InvokeAs, requestId: string) {
      const def = functions.definitions().find((item) => item.name === name);
      if (!def) throw new NotFoundError(`Function ${name} not found`);
      const token = await tokenFor(as);
      const answer = await functions.invoke(def, {
        method: 'POST',
        path: '/',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        requestId,
        userId: as.userId ?? as.admin?.id ?? null,
        body: Readable.from([Buffer.from(JSON.stringify(body))]),
      });
      const shown = await readBounded(answer.body, BODY_SHOWN);
      // The output is recorded once the call's grace period ends; then it is read as the logs keep it.
      await functions.settled();
      const query = FetchLogsQuerySchema.parse({
        type: 'function',
        function: name,
        request_id: requestId,
        limit: 1,
      });
      const logged = (await deps.appLogs.fetchFunctionLogs(appId, query)).items[0];
      return {
        request_id: requestId,
        status: answer.status,
        headers: answer.headers,
        body: shown.text,
        body_truncated: shown.truncated,
        output: logged?.output ?? [],
        output_dropped: logged?.output_dropped ?? 0,
        duration_ms: logged?.duration_ms ?? null,
      };
    },

    /** runNow runs one schedule of name once, as its runner would (the service role), audited. */
    async runNow(actor: AuditActor, name: string, automationName: string) {
      const def = functions.definitions().find((item) => item.name === name);
      const automation = def?.automations.find(
        (item) => item.name === automationName && item.type === 'scheduled',
      );
      if (!automation) throw new NotFoundError(`Schedule ${automationName} of function ${name} not found`);
      await deps.audit.record(appId, actor, {
        action: 'schedule.run',
        target: `schedule:${name}/${automationName}`,
      });
      const outcome = await functions.invokeJson(name, automation.function_args ?? {});
      // Written before answering, so the page's refreshed list shows this run among the last ones.
      await functions.settled();
      await deps.appLogs.flush();
      return { status: outcome.status, ok: outcome.ok, detail: outcome.detail ?? null };
    },
  };
}

export type FunctionsConsole = ReturnType<typeof createFunctionsConsole>;
