// A parsed table (header row and data rows) mapped onto a row schema: columns matched by name, cells
// coerced, and every cell that does not fit reported with its row number as the file shows it.
import { matchColumns } from './column-match';
import { coerceCell, isBlank } from './coerce';
import type { RowSchema } from './schema-shape';

/** Table is a sheet as read: header cells, then one array of cells per data row. */
export interface Table {
  headers: string[];
  rows: unknown[][];
  /** firstRowNumber is the file's row number of rows[0] (2 when one header row precedes it). */
  firstRowNumber: number;
  /** titleRowsPossible says the header may sit below a few title rows (sheets and CSV, not JSON). */
  titleRowsPossible?: boolean;
}

/** MAX_TITLE_ROWS is how many rows above the header a sheet may hold (a title, a date, a blank line). */
const MAX_TITLE_ROWS = 10;

/** withHeader is table with its header on the row that matches the most schema fields (the first on ties). */
function withHeader(table: Table, schema: RowSchema): { table: Table; columns: Map<string, number> } {
  let best = { table, columns: matchColumns(table.headers, schema.properties) };
  if (!table.titleRowsPossible) return best;
  const limit = Math.min(MAX_TITLE_ROWS, table.rows.length);
  for (let skip = 1; skip <= limit; skip++) {
    const headers = (table.rows[skip - 1] ?? []).map((cell) => (isBlank(cell) ? '' : String(cell).trim()));
    const columns = matchColumns(headers, schema.properties);
    if (columns.size > best.columns.size) {
      best = {
        table: {
          ...table,
          headers,
          rows: table.rows.slice(skip),
          firstRowNumber: table.firstRowNumber + skip,
        },
        columns,
      };
    }
  }
  return best;
}

/** RowError is one cell the schema refused, or a required field left empty. */
export interface RowError {
  row: number;
  field: string;
  message: string;
}

/** MappedTable is the rows that fit and the errors of those that did not. */
export type MappedTable =
  | { ok: true; rows: Record<string, unknown>[]; errors: RowError[]; rejected: number }
  | { ok: false; details: string };

/** MAX_REPORTED_ERRORS bounds the per-row errors returned (the count is still exact). */
export const MAX_REPORTED_ERRORS = 100;

/** mapTable maps table onto schema; rows whose every matched cell is blank are dropped. */
export function mapTable(read: Table, schema: RowSchema): MappedTable {
  const { table, columns } = withHeader(read, schema);
  if (columns.size === 0) {
    const fields = Object.keys(schema.properties).join(', ').slice(0, 200);
    const headers = table.headers.filter(Boolean).join(', ').slice(0, 200);
    return {
      ok: false,
      details: `No column matches the schema fields (${fields}); the file's columns are: ${headers || 'none'}`,
    };
  }
  const rows: Record<string, unknown>[] = [];
  const errors: RowError[] = [];
  let rejected = 0;
  table.rows.forEach((cells, index) => {
    const rowNumber = table.firstRowNumber + index;
    if ([...columns.values()].every((column) => isBlank(cells[column]))) return;
    const record: Record<string, unknown> = {};
    let failed = false;
    const report = (field: string, message: string) => {
      failed = true;
      if (errors.length < MAX_REPORTED_ERRORS) errors.push({ row: rowNumber, field, message });
    };
    for (const [field, column] of columns) {
      const coerced = coerceCell(cells[column], schema.properties[field] ?? {});
      if ('empty' in coerced) continue;
      if (coerced.ok) record[field] = coerced.value;
      else report(field, coerced.message);
    }
    for (const field of schema.required) {
      if (!(field in record) && !errors.some((error) => error.row === rowNumber && error.field === field)) {
        report(field, columns.has(field) ? 'is required but empty' : 'is required but no column matches it');
      }
    }
    if (failed) rejected++;
    else rows.push(record);
  });
  return { ok: true, rows, errors, rejected };
}
