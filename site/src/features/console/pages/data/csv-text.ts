// CSV as RFC 4180 writes it (comma, CRLF, a field quoted when it holds a comma, quote, CR or LF, quotes
// doubled), with spreadsheet formula injection neutralised on export, and a reader for the same format.

/** FORMULA_START is what a spreadsheet reads as a formula at a cell's start: = + - @, tab and CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** neutraliseCell prefixes a cell a spreadsheet would run as a formula with `'`, so it shows as text. */
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** quoteCell quotes a cell when RFC 4180 requires it (comma, double quote, CR or LF), doubling its quotes. */
export function quoteCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** cellText is a value as CSV text: strings as they are, null and absent as empty, the rest as JSON. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * csvOf writes rows (header first) as CSV text, CRLF after each row. With neutralise, every cell that
 * could start a formula is prefixed with `'` (export); without, cells are written as they are (a file
 * sent back to the import route).
 */
export function csvOf(rows: string[][], options: { neutralise: boolean }): string {
  const cell = (text: string) => quoteCell(options.neutralise ? neutraliseCell(text) : text);
  return rows.map((row) => `${row.map(cell).join(',')}\r\n`).join('');
}

/**
 * parseCsv reads RFC 4180 text into rows (a leading BOM dropped; quoted fields may hold commas, quotes and
 * line breaks). Empty lines are skipped, as the server's import reader skips them, so row numbers agree.
 */
export function parseCsv(text: string): string[][] {
  const source = text.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let touched = false;
  const endRow = () => {
    if (touched || row.length > 0) rows.push([...row, cell]);
    row = [];
    cell = '';
    touched = false;
  };
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') {
      quoted = true;
      touched = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
      touched = true;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i += 1;
      endRow();
    } else {
      cell += char;
      touched = true;
    }
  }
  endRow();
  return rows;
}

/** csvWithoutRows is text without the data rows numbered in rows (1 = the first row after the header). */
export function csvWithoutRows(text: string, rows: Set<number>): string {
  const [header, ...body] = parseCsv(text);
  if (!header) return '';
  return csvOf([header, ...body.filter((_row, index) => !rows.has(index + 1))], { neutralise: false });
}
