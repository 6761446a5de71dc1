// Wiring of the console's Integrations page: what the LLM, mail, custom integrations and files parts
// built, read through one summary, with the LLM check on a client of its own (a short deadline).
import { fileStorageKind } from '../../config/files-env';
import { registerAdminIntegrationRoutes } from '../../routes/admin-integrations';
import { createIntegrationsConsole } from '../../services/admin/integrations-console';
import { CHECK_TIMEOUT_MS, createLlmCheck } from '../../services/admin/llm-check';
import type { AuditLog } from '../../services/audit/audit-log';
import type { FileStorage } from '../../services/files/file-storage';
import type { CustomIntegrations } from '../../services/integrations/custom/custom-integrations-service';
import { createLlmProvider } from '../../services/llm/llm-provider';
import type { TokenBudget } from '../../services/llm/token-budget';
import type { SecretsService } from '../../services/secrets/secrets-service';
import { createFilesStore } from '../../store/files-store';
import { createIntegrationsConsoleStore } from '../../store/integrations-console-store';
import type { Part, Shared } from './part';

/** buildIntegrationsConsolePart serves the Integrations page on the other parts' services. */
export function buildIntegrationsConsolePart(
  shared: Shared,
  parts: {
    budget: TokenBudget;
    custom: CustomIntegrations;
    storage: FileStorage;
    secrets: SecretsService;
    audit: AuditLog;
  },
): Part {
  const { config, logger } = shared;
  const appId = config.APP_ID;
  const provider = config.LLM_PROVIDER_URL
    ? createLlmProvider({
        baseUrl: config.LLM_PROVIDER_URL,
        apiKey: config.LLM_API_KEY,
        timeoutMs: Math.min(CHECK_TIMEOUT_MS, config.LLM_TIMEOUT_MS),
        onFailure: (detail) => logger.warn(detail, 'LLM provider check failed'),
      })
    : null;
  const storage = fileStorageKind(config);
  const integrationsConsole = createIntegrationsConsole({
    appId,
    store: createIntegrationsConsoleStore(shared.db),
    llm: {
      host: config.LLM_PROVIDER_URL ? new URL(config.LLM_PROVIDER_URL).host : null,
      model: config.LLM_MODEL,
      timeoutMs: config.LLM_TIMEOUT_MS,
      dailyTokens: config.LLM_DAILY_TOKEN_BUDGET,
      reservePercent: config.LLM_SERVICE_RESERVE_PERCENT,
      // As parts/llm.ts defaults them: a tenth of the budget per user, a fifth per IP.
      userDailyTokens: config.LLM_USER_DAILY_TOKENS ?? Math.ceil(config.LLM_DAILY_TOKEN_BUDGET / 10),
      ipDailyTokens: config.LLM_IP_DAILY_TOKENS ?? Math.ceil(config.LLM_DAILY_TOKEN_BUDGET / 5),
    },
    check: createLlmCheck({
      appId,
      provider,
      model: config.LLM_MODEL,
      record: (id, entry) => parts.budget.record(id, entry),
    }),
    flushUsage: () => parts.budget.flush(),
    mail: { mode: config.SMTP_URL ? 'smtp' : 'outbox', describe: () => shared.mailer.describe() },
    integrations: shared.project.customIntegrations ?? new Map(),
    custom: parts.custom,
    secretSet: async (name) =>
      Boolean((await parts.secrets.get(appId, name)) ?? config.INTEGRATION_SECRETS[name]),
    files: {
      kind: 'kind' in storage ? storage.kind : storage.problem,
      store: createFilesStore(shared.db),
      storage: parts.storage,
    },
    audit: parts.audit,
  });
  return {
    name: 'integrations console',
    routes: (app, { guard }) => registerAdminIntegrationRoutes(app, { guard, console: integrationsConsole }),
  };
}
