import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useConsoleSession } from '../../components/console-context';
import { EmptyState, ErrorState, LoadingState, PageHeading } from '../../components/page-states';
import type { ConsoleEntity } from './console-entity';
import { countsQuery, entitiesQuery } from './data-api';
import { prefetchFirstRecords } from './data-prefetch';
import type { DataSearch } from './data-search';
import { EntityRecords } from './entity-records';

interface EntityListProps {
  entities: ConsoleEntity[];
  counts: Record<string, number> | undefined;
  current: string;
  as?: string | undefined;
}

/** countText is an entity's count in brackets, or nothing while the counts are on their way. */
const countText = (count: number | undefined) => (count === undefined ? '' : ` (${count})`);

function EntityList({ entities, counts, current, as }: EntityListProps) {
  return (
    <nav aria-label="Entities" className="lg:w-56 lg:shrink-0">
      <ul className="flex flex-wrap gap-2 lg:flex-col">
        {entities.map((entity) => (
          <li key={entity.name}>
            <Link
              to="/data"
              search={{ entity: entity.name, as }}
              aria-current={entity.name === current ? 'page' : undefined}
              className="block rounded px-3 py-1 hover:bg-royal-700 aria-[current=page]:bg-royal-700"
            >
              {entity.name}
              <span className="text-gray-300">{countText(counts?.[entity.name])}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * DataPage is the project's entities with their counts and, for the one in the URL (`?entity=`), its records
 * grid, search, filter, schema and rules; `&as=<userId>` shows the grid as that user sees it.
 */
export function DataPage() {
  const { api } = useConsoleSession();
  const search: DataSearch = useSearch({ strict: false });
  const navigate = useNavigate();
  const entities = useQuery(entitiesQuery(api));
  // Counts read every record: asked beside the rest, never waited on.
  const counts = useQuery(countsQuery(api));
  // The first page of the entity in the URL is asked beside the entity list, not after it.
  const client = useQueryClient();
  const { entity, as } = search;
  useEffect(() => {
    if (entity) prefetchFirstRecords(client, api, entity, as);
  }, [client, api, entity, as]);
  const list = entities.data ?? [];
  const current = search.entity ? list.find((entity) => entity.name === search.entity) : list[0];
  return (
    <>
      <PageHeading>Data</PageHeading>
      {entities.isPending && <LoadingState what="the entities" />}
      {entities.isError && <ErrorState error={entities.error} retry={() => void entities.refetch()} />}
      {entities.data && list.length === 0 && <EmptyState>This project has no entities.</EmptyState>}
      {entities.data && list.length > 0 && (
        <div className="mt-4 flex flex-col gap-6 lg:flex-row">
          <EntityList entities={list} counts={counts.data} current={current?.name ?? ''} as={search.as} />
          <div className="min-w-0 flex-1">
            {current ? (
              <EntityRecords
                key={`${current.name} ${search.as ?? ''}`}
                entity={current}
                records={counts.data?.[current.name]}
                viewAs={search.as ?? null}
                onViewAs={(as) => void navigate({ to: '/data', search: { entity: current.name, as } })}
                onCountsChanged={() => void counts.refetch()}
              />
            ) : (
              <EmptyState>No entity is named {search.entity}. Choose one in the list.</EmptyState>
            )}
          </div>
        </div>
      )}
    </>
  );
}
