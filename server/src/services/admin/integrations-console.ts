// The console's Integrations page: one summary (the LLM provider and its last check, today's token use
// against the budgets, mail and its last sends, custom integrations and their operations, file storage),
// and its actions: "try" of a custom integration operation and the prune of unreferenced files (both
// audited). Nothing shown holds a credential, a mail's recipient or its body.
import type { CustomCallInput } from '../../schemas/custom-integrations';
import type { CustomIntegration } from '../../project/integration-loader';
import type { FilesStore } from '../../store/files-store';
import type { IntegrationsConsoleStore } from '../../store/integrations-console-store';
import type { AuditActor, AuditLog } from '../audit/audit-log';
import { pruneAppFiles } from '../files/file-prune';
import type { FileStorage } from '../files/file-storage';
import type { CustomIntegrations } from '../integrations/custom/custom-integrations-service';
import type { LlmCheck } from './llm-check';

/** TOP_USERS is how many of today's biggest LLM spenders the page names. */
const TOP_USERS = 10;
/** RECENT_MAILS is how many of the last sends the page lists. */
const RECENT_MAILS = 20;
/** OPERATIONS_SHOWN bounds each integration's operations in the summary (a document may declare thousands). */
const OPERATIONS_SHOWN = 200;
/** PRUNE_EXAMINED is how many files one prune looks at; PRUNE_SHOWN how many of those found it lists. */
export const PRUNE_EXAMINED = 1000;
export const PRUNE_SHOWN = 100;
/** TRY_DATA_SHOWN is how much of an upstream answer (as JSON text) the "try" form shows. */
export const TRY_DATA_SHOWN = 64 * 1024;
const DAY_MS = 86_400_000;

/** LlmFacts is how the LLM provider is configured, and the budget's numbers (never the key). */
export interface LlmFacts {
  host: string | null;
  model: string;
  timeoutMs: number;
  dailyTokens: number;
  reservePercent: number;
  userDailyTokens: number;
  ipDailyTokens: number;
}

export interface IntegrationsConsoleDeps {
  appId: string;
  store: IntegrationsConsoleStore;
  llm: LlmFacts;
  check: LlmCheck;
  /** flushUsage writes queued usage rows, so today's figures include the last calls. */
  flushUsage: () => Promise<void>;
  mail: { mode: 'smtp' | 'outbox'; describe: () => string };
  integrations: ReadonlyMap<string, CustomIntegration>;
  custom: Pick<CustomIntegrations, 'find' | 'call'>;
  /** secretSet says whether a secret an integration signs in with has a value (the value never leaves). */
  secretSet: (name: string) => Promise<boolean>;
  files: {
    kind: string;
    store: Pick<FilesStore, 'olderThanIn' | 'isReferenced' | 'delete'>;
    storage: FileStorage;
  };
  audit: AuditLog;
}

/** EMAIL_ADDRESS finds addresses in a send's error (an SMTP refusal may quote its recipient). */
const EMAIL_ADDRESS = /[^\s<>"'@]+@[^\s<>"'@]+/g;

/** shownUrl is a base URL without user info, query or fragment (where credentials could sit). */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** createIntegrationsConsole returns the Integrations page's summary and actions; see the file comment. */
export function createIntegrationsConsole(deps: IntegrationsConsoleDeps) {
  const { appId, store } = deps;

  async function budgetToday() {
    await deps.flushUsage();
    const dayStart = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
    const [byCaller, topUsers] = await Promise.all([
      store.llmUseSince(appId, dayStart),
      store.llmTopUsersSince(appId, dayStart, TOP_USERS),
    ]);
    const { llm } = deps;
    return {
      day_start: dayStart.toISOString(),
      daily_tokens: llm.dailyTokens,
      service_reserve_percent: llm.reservePercent,
      user_daily_tokens: llm.userDailyTokens,
      ip_daily_tokens: llm.ipDailyTokens,
      used_tokens: byCaller.reduce((sum, row) => sum + row.tokens, 0),
      calls: byCaller.reduce((sum, row) => sum + row.calls, 0),
      by_caller: byCaller,
      top_users: topUsers,
    };
  }

  async function mailSummary() {
    const since = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
    const [today, recent] = await Promise.all([
      store.mailsSince(appId, since),
      store.recentMails(appId, RECENT_MAILS),
    ]);
    return {
      mode: deps.mail.mode,
      detail: deps.mail.describe(),
      today,
      recent: recent.map((mail) => ({
        ...mail,
        error: mail.error?.replace(EMAIL_ADDRESS, '[address]') ?? null,
      })),
    };
  }

  async function customSummary() {
    const list = [...deps.integrations.values()].sort((a, b) => a.slug.localeCompare(b.slug));
    return Promise.all(
      list.map(async (integration) => {
        // The map holds an operation under its `method:/path` and under its operationId: listed once.
        const operations = [...new Set(integration.operations.values())];
        return {
          slug: integration.slug,
          base_url: shownUrl(integration.baseUrl),
          timeout_ms: integration.timeoutMs,
          auth: integration.auth
            ? {
                header: integration.auth.header,
                secret: integration.auth.secret,
                secret_set: await deps.secretSet(integration.auth.secret),
              }
            : null,
          operations_total: operations.length,
          operations: operations.slice(0, OPERATIONS_SHOWN).map((operation) => ({
            id: operation.id,
            operation_id: operation.operationId ?? null,
            method: operation.method,
            path: operation.path,
            params: operation.params.map(({ name, in: where, required, type }) => ({
              name,
              in: where,
              required,
              type,
            })),
            body: operation.body,
          })),
        };
      }),
    );
  }

  return {
    /** summary is everything the page shows first, without calling any provider or upstream. */
    async summary() {
      const [budget, mail, custom, files] = await Promise.all([
        budgetToday(),
        mailSummary(),
        customSummary(),
        store.storedFiles(appId),
      ]);
      const { llm } = deps;
      return {
        llm: {
          configured: llm.host !== null,
          host: llm.host,
          model: llm.model,
          timeout_ms: llm.timeoutMs,
          last_check: deps.check.last(),
        },
        budget,
        mail,
        custom,
        files: { storage: deps.files.kind, ...files },
      };
    },

    /** checkLlm makes the one tiny call; configured false when no provider is set (nothing is called). */
    async checkLlm() {
      const result = await deps.check.check();
      return result ? { configured: true, ...result } : { configured: false };
    },

    /** tryOperation calls one operation of slug as an app's backend would (the app's secrets), audited. */
    async tryOperation(actor: AuditActor, slug: string, operation: string, input: CustomCallInput) {
      const found = deps.custom.find(slug, operation);
      await deps.audit.record(appId, actor, {
        action: 'integration.try',
        target: `integration:${slug}/${found.operation.id}`,
      });
      const answer = await deps.custom.call(appId, found, input);
      const text = typeof answer.data === 'string' ? answer.data : JSON.stringify(answer.data, null, 2);
      return {
        operation: found.operation.id,
        success: answer.success,
        status_code: answer.status_code,
        data: text.slice(0, TRY_DATA_SHOWN),
        data_truncated: text.length > TRY_DATA_SHOWN,
      };
    },

    /** pruneFiles lists (dryRun) or removes the app's unreferenced files; a removal is audited. */
    async pruneFiles(actor: AuditActor, dryRun: boolean, minAgeHours: number) {
      const report = await pruneAppFiles({
        files: deps.files.store,
        storage: deps.files.storage,
        appId,
        dryRun,
        minAgeSeconds: Math.round(minAgeHours * 3600),
        maxFiles: PRUNE_EXAMINED,
      });
      if (!dryRun) {
        await deps.audit.record(appId, actor, {
          action: 'files.prune',
          target: `files:${appId}`,
          after: { removed: report.unreferenced.length, bytes: report.bytes, min_age_hours: minAgeHours },
        });
      }
      return {
        dry_run: dryRun,
        min_age_hours: minAgeHours,
        count: report.unreferenced.length,
        bytes: report.bytes,
        files: report.unreferenced
          .slice(0, PRUNE_SHOWN)
          .map(({ key, filename, size }) => ({ key, filename, size })),
        more: report.more,
      };
    },
  };
}

export type IntegrationsConsole = ReturnType<typeof createIntegrationsConsole>;
