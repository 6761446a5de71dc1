// Tables inside a DOCX (mammoth keeps them as HTML `<table>`s), read as the same header-and-rows tables
// as a sheet, so a Word table maps onto a row schema without an LLM.
import { htmlToText } from '../../lib/html-text';
import { tableFromGrid, type TableRead } from './read-table';

/** MAX_DOCX_TABLES bounds how many tables of one document are tried. */
const MAX_DOCX_TABLES = 20;

function cellsOf(row: string): string[] {
  return [...row.matchAll(/<t[dh]\b[^>]*>([\s\S]*?)<\/t[dh]>/gi)].map((cell) => htmlToText(cell[1] ?? ''));
}

/** tablesOfHtml returns each table of mammoth's HTML (at most MAX_DOCX_TABLES), as read with the row cap. */
export function tablesOfHtml(html: string, maxRows: number): TableRead[] {
  const tables = [...html.matchAll(/<table\b[^>]*>([\s\S]*?)<\/table>/gi)].slice(0, MAX_DOCX_TABLES);
  return tables.map((table) => {
    const grid = [...(table[1] ?? '').matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)].map((row) =>
      cellsOf(row[1] ?? ''),
    );
    return tableFromGrid(grid, maxRows);
  });
}
