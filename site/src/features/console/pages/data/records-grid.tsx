import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import type { GridRecord } from './data-api';

// The records grid: TanStack Table for columns and sort state (sorted on the server), TanStack Virtual so
// only the rows in view are in the DOM, in a real <table> (spacer rows keep the scroll height).

const ROW_HEIGHT = 41;
const SYSTEM_COLUMNS = ['created_date', 'updated_date', 'created_by'];

/** cellText shows a value in one line: text as is, anything else as JSON. */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** sortOf turns the server's sort (`-field` or `field`) into the table's sorting state and back. */
const sortingOf = (sort: string): SortingState => [
  { id: sort.replace(/^-/, ''), desc: sort.startsWith('-') },
];

export interface RecordsGridProps {
  fields: string[];
  records: GridRecord[];
  sort: string;
  onSort: (sort: string) => void;
  /** readOnly drops selection and edit (View as). */
  readOnly: boolean;
  selected: ReadonlySet<string>;
  onSelect: (id: string, on: boolean) => void;
  onEdit: (record: GridRecord) => void;
  caption: string;
}

/** RecordsGrid renders one page of records, virtualised, with sortable headers. */
export function RecordsGrid(props: RecordsGridProps) {
  const { fields, records, sort, onSort, readOnly, selected, onSelect, onEdit } = props;
  const columns = useMemo<ColumnDef<GridRecord>[]>(
    () =>
      ['id', ...fields, ...SYSTEM_COLUMNS].map((field) => ({
        id: field,
        header: field,
        accessorFn: (record) => record[field],
      })),
    [fields],
  );
  // The grid re-renders whenever its page changes anyway, so the compiler's memoising is not missed here.
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table returns unmemoisable functions
  const table = useReactTable({
    data: records,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    state: { sorting: sortingOf(sort) },
  });
  const scroller = useRef<HTMLDivElement>(null);
  const rows = table.getRowModel().rows;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // Rows on the first render, before the scroller is measured (a frame later).
    initialRect: { width: 1024, height: 640 },
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const span = columns.length + (readOnly ? 0 : 2);
  const spacer = (height: number) =>
    height > 0 ? (
      <tr aria-hidden="true">
        <td colSpan={span} style={{ height }} />
      </tr>
    ) : null;
  const toggle = (field: string) => onSort(sort === field ? `-${field}` : field);
  return (
    <div
      ref={scroller}
      role="region"
      aria-label={`${props.caption}, scrollable`}
      tabIndex={0}
      className="relative mt-4 max-h-[70vh] overflow-auto rounded border border-royal-700"
    >
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">{props.caption}</caption>
        <thead className="sticky top-0 bg-royal-950">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {!readOnly && (
                <>
                  <th scope="col" className="px-2 py-2">
                    <span className="sr-only">Select</span>
                  </th>
                  <th scope="col" className="px-2 py-2">
                    <span className="sr-only">Edit</span>
                  </th>
                </>
              )}
              {group.headers.map((header) => {
                const state = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={state === 'asc' ? 'ascending' : state === 'desc' ? 'descending' : 'none'}
                    className="px-3 py-2 whitespace-nowrap text-gray-300"
                  >
                    <button
                      type="button"
                      onClick={() => toggle(header.id)}
                      className="underline-offset-2 hover:underline"
                    >
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      <span aria-hidden="true">{state === 'asc' ? ' ▲' : state === 'desc' ? ' ▼' : ''}</span>
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {spacer(before)}
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const id = row.original.id;
            return (
              <tr
                key={row.id}
                data-record-id={id}
                className="border-t border-royal-700"
                style={{ height: ROW_HEIGHT }}
              >
                {!readOnly && (
                  <>
                    <td className="px-2">
                      <input
                        type="checkbox"
                        aria-label={`Select record ${id}`}
                        checked={selected.has(id)}
                        onChange={(event) => onSelect(id, event.currentTarget.checked)}
                      />
                    </td>
                    <td className="px-2">
                      <button
                        type="button"
                        aria-label={`Edit record ${id}`}
                        onClick={() => onEdit(row.original)}
                        className="rounded px-2 text-gold-300 underline"
                      >
                        Edit
                      </button>
                    </td>
                  </>
                )}
                {row.getVisibleCells().map((cell) => (
                  <td
                    key={cell.id}
                    data-field={cell.column.id}
                    className="max-w-xs truncate px-3 whitespace-nowrap"
                  >
                    {cellText(cell.getValue())}
                  </td>
                ))}
              </tr>
            );
          })}
          {spacer(after)}
        </tbody>
      </table>
    </div>
  );
}
