import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ConsoleApiError } from '../../api/console-api';
import { useConsoleSession } from '../../components/console-context';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { BUTTON } from '../../components/sign-in-screen';
import type { ConsoleEntity } from './console-entity';
import {
  DEFAULT_SORT,
  fetchUserEmail,
  recordsQuery,
  withoutRecord,
  withRecord,
  type GridRecord,
} from './data-api';
import { GridQueryForm, type GridQuery } from './grid-query-form';
import { RecordEditor } from './record-editor';
import { combinedQuery, stringFieldsOf } from './record-query';
import { RecordToolbar } from './record-toolbar';
import { RecordsGrid } from './records-grid';
import { SchemaView } from './schema-view';
import { ViewAsPicker } from './view-as-picker';

function ViewAsBanner({ userId, onStop }: { userId: string; onStop: () => void }) {
  const { api } = useConsoleSession();
  const email = useQuery({
    queryKey: ['console', 'user-email', userId],
    queryFn: () => fetchUserEmail(api, userId),
  });
  return (
    <div role="status" className="mt-4 flex flex-wrap items-center gap-3 rounded border border-gold-400 p-3">
      <p>Viewing as {email.data ?? userId} — read-only</p>
      <button type="button" className={BUTTON} onClick={onStop}>
        Stop viewing as
      </button>
    </div>
  );
}

export interface EntityRecordsProps {
  entity: ConsoleEntity;
  viewAs: string | null;
  onViewAs: (userId: string | undefined) => void;
  onCountsChanged: () => void;
  /** records is the entity's count, once known. */
  records?: number | undefined;
}

/** EntityRecords is one entity's grid with its search, filter, paging, toolbar, editor and schema. */
export function EntityRecords({
  entity,
  records: count,
  viewAs,
  onViewAs,
  onCountsChanged,
}: EntityRecordsProps) {
  const { api } = useConsoleSession();
  const [sort, setSort] = useState(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [applied, setApplied] = useState<GridQuery>({ search: '', filter: {} });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<GridRecord | null>(null);
  const fields = useMemo(
    () => Object.keys((entity.schema.properties ?? {}) as Record<string, unknown>),
    [entity.schema],
  );
  const query = useMemo(
    () => combinedQuery(applied.filter, applied.search, stringFieldsOf(entity.schema)),
    [applied, entity.schema],
  );
  const queryClient = useQueryClient();
  const pageQuery = recordsQuery(api, { entity: entity.name, sort, page, query, viewAs });
  const records = useQuery({ ...pageQuery, placeholderData: keepPreviousData, retry: false });
  // A query the server refused (400) is the filter's fault: said next to the box, not as a page error.
  const refused = records.error instanceof ConsoleApiError && records.error.status === 400;
  const refetch = () => {
    void records.refetch();
    onCountsChanged();
  };
  const select = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <>
      <h2 className="text-xl font-semibold text-gold-100">
        {entity.name}{' '}
        {count !== undefined && (
          <span className="text-base font-normal text-gray-300">({count} records)</span>
        )}
      </h2>
      {viewAs ? (
        <ViewAsBanner userId={viewAs} onStop={() => onViewAs(undefined)} />
      ) : (
        <ViewAsPicker onPick={(id) => onViewAs(id)} />
      )}
      <GridQueryForm
        searchable
        serverError={refused ? (records.error?.message ?? null) : null}
        onApply={(next) => {
          setApplied(next);
          setPage(1);
        }}
      />
      <RecordToolbar
        entity={entity}
        selectedIds={[...selected]}
        filter={query}
        viewAs={viewAs}
        onChanged={refetch}
      />
      {records.isPending && <LoadingState what="the records" />}
      {records.isError && !refused && (
        <ErrorState error={records.error} retry={() => void records.refetch()} />
      )}
      {records.data && records.data.records.length === 0 && page === 1 && (
        <EmptyState>No record {viewAs ? 'this user may read ' : ''}matches.</EmptyState>
      )}
      {records.data && records.data.records.length > 0 && (
        <RecordsGrid
          caption={`${entity.name} records, page ${page}`}
          fields={fields}
          records={records.data.records}
          sort={sort}
          onSort={(next) => {
            setSort(next);
            setPage(1);
          }}
          readOnly={viewAs !== null}
          selected={selected}
          onSelect={select}
          onEdit={setEditing}
        />
      )}
      <nav aria-label={`${entity.name} pages`} className="mt-4 flex items-center gap-3">
        <button type="button" className={BUTTON} disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Previous
        </button>
        <p aria-live="polite">Page {page}</p>
        <button
          type="button"
          className={BUTTON}
          disabled={!records.data?.more}
          onClick={() => setPage(page + 1)}
        >
          Next
        </button>
      </nav>
      {!viewAs && (
        <RecordEditor
          entity={entity}
          record={editing}
          open={editing !== null}
          onOpenChange={(open) => {
            if (!open) setEditing(null);
          }}
          onSaved={(saved) => {
            // The saved record replaces its row at once (a deleted one leaves it): an Edit opened before
            // the refetch answers must not start from the old values (and save them back).
            if (saved) queryClient.setQueryData(pageQuery.queryKey, withRecord(saved));
            else if (editing) queryClient.setQueryData(pageQuery.queryKey, withoutRecord(editing.id));
            refetch();
          }}
        />
      )}
      <SchemaView entity={entity} />
    </>
  );
}
