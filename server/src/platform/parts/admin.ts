// The operator API under `/api/apps/:appId/admin/` (service role only): users, app settings, secrets, LLM
// usage and the audit log every change through it is written to. The CLI calls it while a server runs, so the database is never opened by two processes.
import { registerAdminRoutes } from '../../routes/admin';
import { createAdminChanges } from '../../services/admin/admin-changes';
import type { AuditLog } from '../../services/audit/audit-log';
import type { Accounts } from '../../services/auth/accounts';
import type { LlmService } from '../../services/llm/llm-service';
import type { SecretsService } from '../../services/secrets/secrets-service';
import type { Part, Shared } from './part';

/** buildAdminPart serves the operator API on the other parts' services. */
export function buildAdminPart(
  shared: Shared,
  auth: { accounts: Accounts },
  secrets: { secrets: SecretsService },
  llm: { llm: LlmService },
  appLogs: { audit: AuditLog },
): Part {
  const changes = createAdminChanges({
    users: auth.accounts.users,
    findUser: (appId, email) => shared.identity.users.findByEmail(appId, email),
    apps: shared.apps,
    secrets: secrets.secrets,
    audit: appLogs.audit,
  });
  return {
    name: 'admin',
    routes: (app, { guard }) =>
      registerAdminRoutes(app, {
        changes,
        audit: appLogs.audit,
        guard,
        hub: shared.realtime.hub,
        secrets: secrets.secrets,
        llm: llm.llm,
      }),
  };
}
