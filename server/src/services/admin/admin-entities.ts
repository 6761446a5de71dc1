// The console's Data page: the project's entities with their record counts, JSON schemas and rules, so the
// record editor can build its form (a minimal list; the Data grid's branch owns the full one).
import type { EntityDef } from '../../project/entity-def';

const USER_ENTITY = 'User';

/** AdminEntitiesDeps are the project's entities and the counts the Overview already reads. */
export interface AdminEntitiesDeps {
  entities: ReadonlyMap<string, EntityDef>;
  store: {
    countUsers(appId: string): Promise<number>;
    countRecordsByEntity(appId: string): Promise<Map<string, number>>;
  };
}

/** AdminEntity is one entity as the console lists it. */
export interface AdminEntity {
  name: string;
  records: number;
  schema: Record<string, unknown>;
  rules: Record<string, unknown> | null;
}

/** createAdminEntities returns the entity list's reader. */
export function createAdminEntities(deps: AdminEntitiesDeps) {
  return {
    /** list is appId's entities, by name, each with its record count, schema and rules (null when none). */
    async list(appId: string): Promise<{ entities: AdminEntity[] }> {
      const [users, records] = await Promise.all([
        deps.store.countUsers(appId),
        deps.store.countRecordsByEntity(appId),
      ]);
      const entities = [...deps.entities.values()]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((entity) => ({
          name: entity.name,
          records: entity.name === USER_ENTITY ? users : (records.get(entity.name) ?? 0),
          schema: { type: 'object', properties: entity.properties, required: entity.required },
          rules: Object.keys(entity.rls).length ? { ...entity.rls } : null,
        }));
      return { entities };
    },
  };
}

export type AdminEntities = ReturnType<typeof createAdminEntities>;
