import type { ProjectAgents } from './agent-def';
import type { ConnectorDef } from './connector-loader';
import type { LoadedAuthConfig } from './auth-config-loader';
import type { CustomIntegration } from './integration-loader';
import type { EntityRls } from '../rules/rule-schema';
import type { PropertySchema } from '../schemas/entity-project';

// The loaded app project's shapes, as the services use them. Apart from the loader (project-loader.ts)
// and the built-in User (user-entity.ts) so that neither has to import the other's types.

/** UserCustomFields is what a project's `user.jsonc` adds to the built-in User. */
export interface UserCustomFields {
  properties: Record<string, PropertySchema>;
  required: string[];
}

/** EntityDef is one entity of the app project, as the services use it. */
export interface EntityDef {
  name: string;
  properties: Record<string, PropertySchema>;
  required: string[];
  rls: EntityRls;
  /** custom is set on the built-in User only: the fields the project's `user.jsonc` adds. */
  custom?: UserCustomFields;
  /** inferred marks an entity whose schema the server inferred from the app's code at start. */
  inferred?: boolean;
}

/** SeedSet is the records of one seed file, already validated against their entity. */
export interface SeedSet {
  entity: string;
  file: string;
  records: Record<string, unknown>[];
}

/** Project is the loaded app project: its name, entities (by name, the built-in User included) and seeds. */
export interface Project {
  name: string;
  /** appId is the id in `.app.jsonc`, the server's APP_ID when the environment does not set one. */
  appId?: string;
  dir: string;
  entities: Map<string, EntityDef>;
  seeds: SeedSet[];
  /** customIntegrations are `integrations/<slug>.jsonc`, by slug (absent: none). */
  customIntegrations?: ReadonlyMap<string, CustomIntegration>;
  /** agents are `agents/*.jsonc` and the skills of `agent-skills/` (absent: none). */
  agents?: ProjectAgents;
  /** auth is `auth/config.jsonc`, the app's sign-in methods (absent: the defaults). */
  auth?: LoadedAuthConfig;
  /** connectors are `connectors/<type>.jsonc`, by type in lower case (absent: none). */
  connectors?: ReadonlyMap<string, ConnectorDef>;
}
