// The console's Data page: the project's entities (counts, schema, rules), and "View as user", which reads
// a page as that user's own list call would: the caller resolved as the auth path resolves that user's
// token, then the very read the list route makes (no SQL and no rule logic of its own).
import { NotFoundError } from '../../lib/errors';
import type { EntityDef, Project } from '../../project/entity-def';
import type { EntityRls } from '../../rules/rule-schema';
import type { PropertySchema } from '../../schemas/entity-project';
import type { EntitiesService } from '../entities/entities-service';
import type { ListOptions } from '../entities/read-records';
import type { AppAccess } from '../identity/app-access';
import type { AppOverviewDeps } from './app-overview';

const USER_ENTITY = 'User';

/** ConsoleEntity is one entity as the Data page lists it (its count comes apart: `counts`). */
export interface ConsoleEntity {
  name: string;
  schema: Record<string, unknown>;
  /** rules are the entity's `rls` and each field's, by dotted path (`[]` for an array's items); null: none. */
  rules: { rls: EntityRls; fields: Record<string, EntityRls> } | null;
}

/** fieldRulesOf collects the `rls` blocks under properties, by dotted path. */
function fieldRulesOf(properties: Record<string, PropertySchema>, prefix = ''): Record<string, EntityRls> {
  const rules: Record<string, EntityRls> = {};
  for (const [name, property] of Object.entries(properties)) {
    const path = `${prefix}${name}`;
    if (property.rls) rules[path] = property.rls;
    if (property.properties) Object.assign(rules, fieldRulesOf(property.properties, `${path}.`));
    if (property.items?.properties)
      Object.assign(rules, fieldRulesOf(property.items.properties, `${path}[].`));
  }
  return rules;
}

function describe(entity: EntityDef): ConsoleEntity {
  // The built-in User's schema is its project custom fields (the account fields are fixed).
  const properties = entity.custom?.properties ?? entity.properties;
  const required = entity.custom?.required ?? entity.required;
  const fields = fieldRulesOf(properties);
  const stated = Object.keys(entity.rls).length > 0 || Object.keys(fields).length > 0;
  return {
    name: entity.name,
    schema: { type: 'object', properties, required },
    rules: stated ? { rls: entity.rls, fields } : null,
  };
}

/** EntityBrowserDeps: the project, the record counts, who a user is, and the entities' own read. */
export interface EntityBrowserDeps {
  project: Pick<Project, 'entities'>;
  counts: AppOverviewDeps['store'];
  access: Pick<AppAccess, 'userPrincipal' | 'dataCaller'>;
  entities: Pick<EntitiesService, 'list'>;
}

/** createEntityBrowser returns the Data page's reads. */
export function createEntityBrowser(deps: EntityBrowserDeps) {
  return {
    /**
     * entities lists the project's entities by name, with schema and rules: from the project, no query, so
     * the grid never waits on a count over every record.
     */
    entities(): { entities: ConsoleEntity[] } {
      const defs = [...deps.project.entities.values()].sort((a, b) => a.name.localeCompare(b.name));
      return { entities: defs.map(describe) };
    },

    /** counts answers each entity's record count (User: the app's accounts). */
    async counts(appId: string): Promise<{ counts: Record<string, number> }> {
      const [users, records] = await Promise.all([
        deps.counts.countUsers(appId),
        deps.counts.countRecordsByEntity(appId),
      ]);
      const names = [...deps.project.entities.keys()];
      return {
        counts: Object.fromEntries(
          names.map((name) => [name, name === USER_ENTITY ? users : (records.get(name) ?? 0)]),
        ),
      };
    },

    /**
     * viewAs answers the page userId's own list call would get: an unknown user is a 404, a disabled one
     * a 403 (as their token would be), and the app's visibility applies as it does to them.
     */
    async viewAs(appId: string, name: string, userId: string, options: ListOptions) {
      const principal = await deps.access.userPrincipal(appId, userId);
      if (principal.kind === 'invalid') throw new NotFoundError(`User ${userId} not found`);
      const caller = await deps.access.dataCaller(appId, principal);
      return deps.entities.list(appId, name, caller, options);
    },
  };
}

export type EntityBrowser = ReturnType<typeof createEntityBrowser>;
