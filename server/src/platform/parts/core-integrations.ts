// The `Core/<Name>` integration route and the installable-package route: the handlers come from the parts
// that serve them (part.ts `coreHandlers`), so a capability adds its Core names without editing this.
import { registerIntegrationsRoutes } from '../../routes/integrations';
import type { Part, Shared } from './part';

/** buildCoreIntegrationsPart answers `integration-endpoints/Core/<Name>` with every part's handlers. */
export function buildCoreIntegrationsPart(shared: Shared): Part {
  return {
    name: 'Core integrations',
    routes: (app, { guard, budget, coreHandlers }) =>
      registerIntegrationsRoutes(app, { guard, apps: shared.apps, budget, handlers: coreHandlers }),
  };
}
