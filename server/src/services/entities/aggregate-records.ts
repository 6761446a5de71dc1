import type { Caller } from '../../rules/caller';
import type { EntitiesContext } from './entities-context';
import { parseAggregateSpec } from './entity-aggregate';

// Grouping and measuring entity records in SQL; the spec is parsed in entity-aggregate.ts.

/** aggregateRecords returns the aggregate action of the entities service. */
export function aggregateRecords(ctx: EntitiesContext) {
  const { store, requireReadable, selection } = ctx;
  return {
    /**
     * aggregate groups the records matching spec.query that the caller may read (read rule and query in
     * SQL, hidden fields read as missing) and returns `{rows, truncated}`; a bad spec is a 400.
     */
    async aggregate(appId: string, name: string, caller: Caller, spec: unknown) {
      const entity = requireReadable(name, caller);
      const { plan, query } = parseAggregateSpec(entity, spec);
      return store.aggregate(selection(appId, entity, caller, 'read', query), plan);
    },
  };
}
