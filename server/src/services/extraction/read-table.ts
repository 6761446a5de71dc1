// Tabular files (CSV/TSV, XLSX/XLS/ODS, JSON) read into a header row and data rows. Every cap (rows,
// columns, characters per cell and per row, JSON depth) is applied while the parser reads, so a file
// costs no more than the caps allow. These run in the document worker (see document-worker.ts).
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import * as XLSX from '@e965/xlsx';
import { jsonDepthProblem } from './json-depth';
import type { Table } from './map-table';

/** TableRead is the table, or why the file is not one (a message for `details`). */
export type TableRead = { ok: true; table: Table } | { ok: false; details: string };

/** MAX_COLUMNS bounds how wide a table may be; wider files are refused rather than mapped. */
export const MAX_COLUMNS = 500;
/** MAX_CELL_CHARS bounds one cell's text (a spreadsheet cell holds no more); longer cells refuse the file. */
export const MAX_CELL_CHARS = 32_767;
/** MAX_RECORD_CHARS bounds one CSV row's characters (its cells together). */
export const MAX_RECORD_CHARS = 1024 * 1024;
/** MAX_JSON_DEPTH bounds how deeply a JSON file's arrays and objects nest. */
export const MAX_JSON_DEPTH = 64;

const tooManyRows = (maxRows: number): TableRead => ({
  ok: false,
  details: `The file has more than ${maxRows} data rows, the most this server extracts (EXTRACT_MAX_ROWS)`,
});
const TOO_WIDE = `The file has more than ${MAX_COLUMNS} columns, the most extraction reads: delete the cells beyond the table or copy the table into a new file`;
const cellTooLong = (row: number, column: number): string =>
  `Row ${row}, column ${column} holds more than ${MAX_CELL_CHARS} characters, the most a cell may hold: shorten it or leave it out of the file`;

/** TableLimit stops a parser at a cap; its message is the `details` answered. */
class TableLimit extends Error {}

/** tableFromGrid takes the first non-empty row as the header, refusing grids over the caps (cells: unless cellsChecked). */
export function tableFromGrid(grid: unknown[][], maxRows: number, cellsChecked = false): TableRead {
  // The header is the first row with any cell; rows above it (a title, blank lines) are skipped.
  const start = grid.findIndex((row) =>
    row.some((cell) => cell !== null && cell !== undefined && String(cell).trim() !== ''),
  );
  if (start < 0) return { ok: false, details: 'The file holds no rows' };
  const headerRow = grid[start] ?? [];
  if (headerRow.length > MAX_COLUMNS) return { ok: false, details: TOO_WIDE };
  const rows = grid.slice(start + 1);
  if (rows.length > maxRows) return tooManyRows(maxRows);
  for (let index = cellsChecked ? grid.length : start; index < grid.length; index++) {
    const cells = grid[index] ?? [];
    const long = cells.findIndex((cell) => typeof cell === 'string' && cell.length > MAX_CELL_CHARS);
    if (long >= 0) return { ok: false, details: cellTooLong(index + 1, long + 1) };
  }
  const headers = headerRow.map((cell) => (cell === null || cell === undefined ? '' : String(cell).trim()));
  return { ok: true, table: { headers, rows, firstRowNumber: start + 2, titleRowsPossible: true } };
}

/** guessDelimiter picks the separator the first line uses most: comma, semicolon, tab or pipe. */
export function guessDelimiter(text: string): string {
  const head = text.slice(0, 10_000);
  const newline = head.indexOf('\n');
  const firstLine = newline < 0 ? head : head.slice(0, newline);
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    const found = firstLine.split(candidate).length - 1;
    if (found > bestCount) [best, bestCount] = [candidate, found];
  }
  return best;
}

/** readCsv parses CSV/TSV text (BOM, quotes, ragged rows) up to maxRows data rows. */
export function readCsv(bytes: Buffer, maxRows: number): TableRead {
  const text = bytes.toString('utf8');
  try {
    const grid = parseCsv(text, {
      bom: true,
      delimiter: guessDelimiter(text.replace(/^\uFEFF/, '')),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      // One header row and one row past the cap, so "more than the cap" is known without reading on.
      to: maxRows + 2,
      max_record_size: MAX_RECORD_CHARS,
      // Per row, not per field: a `cast` function costs csv-parse ten times its parse. A wide row is built
      // before it is refused (in the worker; max_record_size bounds its text).
      on_record: (record: string[], context) => {
        if (record.length > MAX_COLUMNS) throw new TableLimit(TOO_WIDE);
        const long = record.findIndex((cell) => cell.length > MAX_CELL_CHARS);
        if (long >= 0) throw new TableLimit(cellTooLong(context.lines, long + 1));
        return record;
      },
    }) as string[][];
    return tableFromGrid(grid, maxRows, true);
  } catch (error) {
    if (error instanceof TableLimit) return { ok: false, details: error.message };
    if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') {
      return {
        ok: false,
        details: `A row of the CSV file holds more than ${MAX_RECORD_CHARS} characters, the most extraction reads in one row (is it a CSV file?)`,
      };
    }
    return {
      ok: false,
      details: `The CSV file could not be read: ${(error as Error).message.slice(0, 200)}`,
    };
  }
}

/** usedRange is sheet's range cut to its cells (a file may declare a wider one) and to maxRows rows. */
function usedRange(sheet: XLSX.WorkSheet, maxRows: number): XLSX.Range | null {
  const ref = sheet['!ref'];
  if (ref === undefined) return null;
  const range = XLSX.utils.decode_range(ref);
  const data = sheet['!data'];
  if (Array.isArray(data)) {
    // Dense rows are arrays as long as their last cell: the widest of them is the last column used.
    let last = range.s.c;
    const rows = Math.min(data.length, range.s.r + maxRows + 2);
    for (let row = range.s.r; row < rows; row++) last = Math.max(last, (data[row]?.length ?? 0) - 1);
    range.e.c = Math.min(range.e.c, last);
  }
  range.e.r = Math.min(range.e.r, range.s.r + maxRows + 1);
  return range;
}

/**
 * clampSheet sets sheet's range to the cells it uses, at most maxRows rows (and refuses more than
 * MAX_COLUMNS columns), before any conversion walks it: a single cell at XFD1 would otherwise widen every
 * row to 16,384 cells.
 */
export function clampSheet(sheet: XLSX.WorkSheet, maxRows: number): string | null {
  const range = usedRange(sheet, maxRows);
  if (range === null) return null;
  const columns = range.e.c - range.s.c + 1;
  if (columns > MAX_COLUMNS) {
    return `The sheet's cells span ${columns} columns (${XLSX.utils.encode_col(range.s.c)} to ${XLSX.utils.encode_col(range.e.c)}), more than the ${MAX_COLUMNS} extraction reads: delete the cells beyond the table or copy the table into a new sheet`;
  }
  sheet['!ref'] = XLSX.utils.encode_range(range);
  return null;
}

/** readWorkbook parses an XLSX/XLS/ODS file, reading at most maxRows + 2 rows of each sheet. */
export function readWorkbook(bytes: Buffer, maxRows: number): XLSX.WorkBook {
  return XLSX.read(bytes, { type: 'buffer', cellDates: true, sheetRows: maxRows + 2, dense: true });
}

/** readSpreadsheet reads the first sheet of an XLSX/XLS/ODS workbook (dates as dates, numbers as numbers). */
export function readSpreadsheet(bytes: Buffer, maxRows: number): TableRead {
  try {
    const workbook = readWorkbook(bytes, maxRows);
    const name = workbook.SheetNames[0];
    const sheet = name === undefined ? undefined : workbook.Sheets[name];
    if (!sheet) return { ok: false, details: 'The workbook has no sheet' };
    const wide = clampSheet(sheet, maxRows);
    if (wide !== null) return { ok: false, details: wide };
    const grid = XLSX.utils.sheet_to_json<unknown[]>(sheet, {
      header: 1,
      raw: true,
      defval: null,
      blankrows: false,
    });
    return tableFromGrid(grid, maxRows);
  } catch (error) {
    return {
      ok: false,
      details: `The spreadsheet could not be read: ${(error as Error).message.slice(0, 200)}`,
    };
  }
}

function rowsOfJson(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'object' || value === null) return null;
  // `{items: [...]}`, `{data: [...]}`: the one array of objects the document holds.
  const arrays = Object.values(value).filter(
    (entry): entry is unknown[] => Array.isArray(entry) && entry.some((item) => typeof item === 'object'),
  );
  return arrays.length === 1 ? (arrays[0] ?? null) : [value];
}

/** readJson reads an array of objects (or an object holding one) as a table whose header is every key. */
export function readJson(bytes: Buffer, maxRows: number): TableRead {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const deep = jsonDepthProblem(text, MAX_JSON_DEPTH);
  if (deep !== null) return { ok: false, details: deep };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      details: `The JSON file could not be read: ${(error as Error).message.slice(0, 200)}`,
    };
  }
  const items = rowsOfJson(value);
  if (!items) return { ok: false, details: 'The JSON file holds no objects to extract' };
  if (items.length > maxRows) return tooManyRows(maxRows);
  const headers: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    for (const key of Object.keys(item)) {
      if (seen.has(key)) continue;
      if (seen.size >= MAX_COLUMNS)
        return { ok: false, details: `The file has more than ${MAX_COLUMNS} keys` };
      seen.add(key);
      headers.push(key);
    }
  }
  const rows = items.map((item) =>
    typeof item === 'object' && item !== null
      ? headers.map((key) => (item as Record<string, unknown>)[key])
      : [],
  );
  for (let index = 0; index < rows.length; index++) {
    const long = (rows[index] ?? []).findIndex(
      (cell) => typeof cell === 'string' && cell.length > MAX_CELL_CHARS,
    );
    if (long >= 0) return { ok: false, details: cellTooLong(index + 1, long + 1) };
  }
  return { ok: true, table: { headers, rows, firstRowNumber: 1 } };
}
