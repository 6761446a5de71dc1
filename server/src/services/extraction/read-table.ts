// Tabular files (CSV/TSV, XLSX/XLS/ODS, JSON) read into a header row and data rows, stopping past the
// row cap so a huge file costs no more than the cap allows.
import { parse as parseCsv } from 'csv-parse/sync';
import * as XLSX from '@e965/xlsx';
import type { Table } from './map-table';

/** TableRead is the table, or why the file is not one (a message for `details`). */
export type TableRead = { ok: true; table: Table } | { ok: false; details: string };

/** MAX_COLUMNS bounds how wide a table may be; wider files are refused rather than mapped. */
export const MAX_COLUMNS = 500;

const tooManyRows = (maxRows: number): TableRead => ({
  ok: false,
  details: `The file has more than ${maxRows} data rows, the most this server extracts (EXTRACT_MAX_ROWS)`,
});

/** tableFromGrid takes the first non-empty row as the header, refusing grids over the caps. */
export function tableFromGrid(grid: unknown[][], maxRows: number): TableRead {
  // The header is the first row with any cell; rows above it (a title, blank lines) are skipped.
  const start = grid.findIndex((row) =>
    row.some((cell) => cell !== null && cell !== undefined && String(cell).trim() !== ''),
  );
  if (start < 0) return { ok: false, details: 'The file holds no rows' };
  const headerRow = grid[start] ?? [];
  if (headerRow.length > MAX_COLUMNS) {
    return { ok: false, details: `The file has more than ${MAX_COLUMNS} columns` };
  }
  const rows = grid.slice(start + 1);
  if (rows.length > maxRows) return tooManyRows(maxRows);
  const headers = headerRow.map((cell) => (cell === null || cell === undefined ? '' : String(cell).trim()));
  return { ok: true, table: { headers, rows, firstRowNumber: start + 2, titleRowsPossible: true } };
}

/** guessDelimiter picks the separator the first line uses most: comma, semicolon, tab or pipe. */
export function guessDelimiter(text: string): string {
  const firstLine = text.slice(0, 10_000).split(/\r?\n/, 1)[0] ?? '';
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
    }) as string[][];
    return tableFromGrid(grid, maxRows);
  } catch (error) {
    return {
      ok: false,
      details: `The CSV file could not be read: ${(error as Error).message.slice(0, 200)}`,
    };
  }
}

/** readSpreadsheet reads the first sheet of an XLSX/XLS/ODS workbook (dates as dates, numbers as numbers). */
export function readSpreadsheet(bytes: Buffer, maxRows: number): TableRead {
  try {
    const workbook = XLSX.read(bytes, {
      type: 'buffer',
      cellDates: true,
      sheetRows: maxRows + 2,
      dense: true,
    });
    const name = workbook.SheetNames[0];
    const sheet = name === undefined ? undefined : workbook.Sheets[name];
    if (!sheet) return { ok: false, details: 'The workbook has no sheet' };
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
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
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
  return { ok: true, table: { headers, rows, firstRowNumber: 1 } };
}
