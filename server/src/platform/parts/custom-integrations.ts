// Custom integrations: the project's `integrations/<slug>.jsonc` OpenAPI operations, called through the
// SDK with the app's secrets as auth headers, through the guarded outbound fetch.
import type { PublicFetch } from '../../lib/public-fetch';
import { registerCustomIntegrationsRoutes } from '../../routes/custom-integrations';
import {
  createCustomIntegrations,
  type CustomIntegrations,
} from '../../services/integrations/custom/custom-integrations-service';
import type { SecretsService } from '../../services/secrets/secrets-service';
import type { Part, Shared } from './part';

/** CustomIntegrationsPart is the project's custom integrations (the console's Integrations page tries them). */
export interface CustomIntegrationsPart extends Part {
  custom: CustomIntegrations;
}

/** buildCustomIntegrationsPart builds the project's custom integrations. */
export function buildCustomIntegrationsPart(
  shared: Shared,
  secrets: { secrets: SecretsService },
  files: { fetchPublic: PublicFetch },
): CustomIntegrationsPart {
  const { config } = shared;
  const custom = createCustomIntegrations({
    integrations: shared.project.customIntegrations ?? new Map(),
    secrets: secrets.secrets,
    fetchPublic: files.fetchPublic,
    // Only when the secrets store has none by that name (documented in the README).
    fallbackSecret: (name) => config.INTEGRATION_SECRETS[name],
  });
  return {
    name: 'custom integrations',
    custom,
    routes: (app, { guard, budget }) =>
      registerCustomIntegrationsRoutes(app, { guard, apps: shared.apps, budget, custom }),
  };
}
