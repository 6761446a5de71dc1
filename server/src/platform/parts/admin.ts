// The operator API under `/api/apps/:appId/admin/` (service role only): users, app settings, secrets and
// LLM usage. The CLI calls it while a server runs, so the database is never opened by two processes.
import { registerAdminRoutes } from '../../routes/admin';
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
): Part {
  return {
    name: 'admin',
    routes: (app, { guard }) =>
      registerAdminRoutes(app, {
        apps: shared.apps,
        users: auth.accounts.users,
        guard,
        hub: shared.realtime.hub,
        secrets: secrets.secrets,
        llm: llm.llm,
      }),
  };
}
