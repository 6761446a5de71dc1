import type { RecordsApi, StoredRecord } from '../../api/records-api';
import type { ConsoleEntity } from './console-entity';
import { cellText, csvOf } from './csv-text';

/** MAX_EXPORT_ROWS bounds one export (the import route's own row limit): more is cut and said. */
export const MAX_EXPORT_ROWS = 100_000;
/** EXPORT_PAGE is how many records each list request of an export asks for. */
const EXPORT_PAGE = 1000;
/** BOM starts the file, so spreadsheet programs read it as UTF-8 (the import route skips it). */
const BOM = '\uFEFF';
const STAMPS_AFTER = ['created_date', 'updated_date', 'created_by'];

/** exportColumnsOf is the CSV's header: id, the schema's fields in order, then the server's stamps. */
export function exportColumnsOf(entity: ConsoleEntity): string[] {
  const properties = entity.schema.properties;
  const fields = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
  return [
    'id',
    ...fields.filter((field) => field !== 'id' && !STAMPS_AFTER.includes(field)),
    ...STAMPS_AFTER,
  ];
}

/** exportCsvOf is records as the export's CSV text: BOM, header, one row each, formula cells neutralised. */
export function exportCsvOf(columns: string[], records: StoredRecord[]): string {
  const rows = records.map((record) => columns.map((column) => cellText(record[column])));
  return BOM + csvOf([columns, ...rows], { neutralise: true });
}

/** exportFileName is `<Entity>-<YYYY-MM-DD>.csv` for the day of now (UTC). */
export function exportFileName(entity: string, now = new Date()): string {
  return `${entity}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * fetchAllRecords pages through every record of entity matching filter, in creation order, up to
 * MAX_EXPORT_ROWS; cut says whether there were more.
 */
export async function fetchAllRecords(
  api: RecordsApi,
  entity: string,
  filter: Record<string, unknown> | null,
  onCount: (count: number) => void,
): Promise<{ records: StoredRecord[]; cut: boolean }> {
  const records: StoredRecord[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = await api.page(entity, { filter, limit: EXPORT_PAGE, cursor });
    records.push(...page.items);
    onCount(records.length);
    if (!page.has_more || !page.next_cursor) return { records, cut: false };
    if (records.length >= MAX_EXPORT_ROWS) return { records: records.slice(0, MAX_EXPORT_ROWS), cut: true };
    cursor = page.next_cursor;
  }
}

/** downloadText saves text as a file named name (a temporary object URL and a download link). */
export function downloadText(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
