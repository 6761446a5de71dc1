import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useConsoleSession } from '../../components/console-context';
import { EmptyState, ErrorState, LoadingState, PageHeading } from '../../components/page-states';
import type { ConsoleEntity } from './console-entity';
import { cellText } from './csv-text';
import { RecordEditor } from './record-editor';
import { RecordToolbar } from './record-toolbar';

// A plain Data page, enough to mount the record toolbar and editor: the Data grid (paging, sort, search,
// filter, View as) replaces it. Rows keep the grid's contract: a checkbox "Select record <id>" and a
// button "Edit record <id>".

const SHOWN_FIELDS = 4;

function RecordsTable({ entity }: { entity: ConsoleEntity }) {
  const { api } = useConsoleSession();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<Record<string, unknown> | null>(null);
  const key = ['console', 'records', entity.name];
  const records = useQuery({
    queryKey: key,
    queryFn: () => api.records.page(entity.name, { filter: null, sort: '-created_date' }),
  });
  const changed = () => {
    setSelected([]);
    void queryClient.invalidateQueries({ queryKey: key });
  };
  const properties = entity.schema.properties;
  const fields = Object.keys(typeof properties === 'object' && properties !== null ? properties : {}).slice(
    0,
    SHOWN_FIELDS,
  );
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => (on ? [...current, id] : current.filter((other) => other !== id)));
  return (
    <>
      <RecordToolbar entity={entity} selectedIds={selected} filter={null} viewAs={null} onChanged={changed} />
      {records.isPending && <LoadingState what="the records" />}
      {records.isError && <ErrorState error={records.error} retry={() => void records.refetch()} />}
      {records.data?.items.length === 0 && <EmptyState>No {entity.name} records yet.</EmptyState>}
      {records.data && records.data.items.length > 0 && (
        <div className="mt-4 overflow-x-auto">
          <table className="min-w-full text-left">
            <caption className="sr-only">{entity.name} records</caption>
            <thead>
              <tr>
                <th scope="col" className="pr-4 text-gray-300">
                  Select
                </th>
                <th scope="col" className="pr-4 text-gray-300">
                  id
                </th>
                {fields.map((field) => (
                  <th key={field} scope="col" className="pr-4 text-gray-300">
                    {field}
                  </th>
                ))}
                <th scope="col" className="text-gray-300">
                  Edit
                </th>
              </tr>
            </thead>
            <tbody>
              {records.data.items.map((record) => {
                const id = String(record.id);
                return (
                  <tr key={id} className="border-t border-royal-700">
                    <td className="py-2 pr-4">
                      <input
                        type="checkbox"
                        aria-label={`Select record ${id}`}
                        checked={selected.includes(id)}
                        onChange={(event) => toggle(id, event.target.checked)}
                      />
                    </td>
                    <td className="py-2 pr-4 font-mono text-sm">{id}</td>
                    {fields.map((field) => (
                      <td key={field} className="max-w-[16rem] truncate py-2 pr-4">
                        {cellText(record[field])}
                      </td>
                    ))}
                    <td className="py-2">
                      <button type="button" className="underline" onClick={() => setEditing(record)}>
                        <span className="sr-only">Edit record {id}</span>
                        <span aria-hidden="true">Edit</span>
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <RecordEditor
        entity={entity}
        record={editing}
        open={editing !== null}
        onOpenChange={(open) => {
          if (!open) setEditing(null);
        }}
        onSaved={changed}
      />
    </>
  );
}

/** DataPage lists the app's entities; with `?entity=<Name>`, that entity's records. */
export function DataPage() {
  const { api } = useConsoleSession();
  const { entity: name } = useSearch({ from: '/data' });
  const entities = useQuery({ queryKey: ['console', 'entities'], queryFn: () => api.records.entities() });
  const entity = entities.data?.find((candidate) => candidate.name === name);
  return (
    <>
      <PageHeading>Data</PageHeading>
      {entities.isPending && <LoadingState what="the entities" />}
      {entities.isError && <ErrorState error={entities.error} retry={() => void entities.refetch()} />}
      {entities.data && (
        <nav aria-label="Entities" className="mt-4">
          <ul className="flex flex-wrap gap-3">
            {entities.data.map((candidate) => (
              <li key={candidate.name}>
                <Link
                  to="/data"
                  search={{ entity: candidate.name }}
                  className="underline"
                  aria-current={candidate.name === name ? 'page' : undefined}
                >
                  {candidate.name} ({candidate.records})
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {entities.data && name && !entity && <EmptyState>There is no entity named {name}.</EmptyState>}
      {entity && (
        <section aria-labelledby="data-entity" className="mt-6">
          <h2 id="data-entity" className="text-xl font-semibold text-gold-100">
            {entity.name}
          </h2>
          <RecordsTable key={entity.name} entity={entity} />
        </section>
      )}
    </>
  );
}
