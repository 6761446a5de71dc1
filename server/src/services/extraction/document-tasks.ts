// The document worker's work (see document-worker.ts): guards first (zip bombs, PDF Flate bombs), then
// the parser, then the caps, then the mapping onto a row schema, so the main thread only receives the
// rows it answers. Runs inside the worker; plain functions, so tests may also call them directly.
import * as XLSX from '@e965/xlsx';
import { InvalidInputError } from '../../lib/errors';
import type { FileBytes } from '../files/file-reader';
import type {
  DocumentAnswer,
  DocumentFile,
  DocumentRequest,
  ReadLimits,
  RowsAnswer,
} from './document-protocol';
import { tablesOfHtml } from './docx-tables';
import { fileKind } from './file-kind';
import { mapTable } from './map-table';
import { pdfProblem } from './pdf-guard';
import { clampSheet, readCsv, readJson, readSpreadsheet, readWorkbook, type TableRead } from './read-table';
import type { RowSchema } from './schema-shape';
import { archiveProblem } from './zip-guard';

/** MAX_SHEETS bounds the sheets of a workbook turned into text. */
const MAX_SHEETS = 20;

const nameOf = (file: FileBytes) => file.filename.slice(0, 100);

async function docxHtml(bytes: Buffer): Promise<string> {
  const mammoth = (await import('mammoth')).default;
  return (await mammoth.convertToHtml({ buffer: bytes })).value;
}

async function docxText(bytes: Buffer): Promise<string> {
  const mammoth = (await import('mammoth')).default;
  return (await mammoth.extractRawText({ buffer: bytes })).value;
}

async function pdfText(bytes: Buffer, maxPages: number): Promise<string> {
  const { PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(bytes), isEvalSupported: false });
  try {
    return (await parser.getText({ first: maxPages, pageJoiner: '' })).text;
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

/** docxRows maps the first table of a DOCX that fits the schema; `document` when none does. */
async function docxRows(file: FileBytes, row: RowSchema, maxRows: number): Promise<RowsAnswer> {
  let html: string;
  try {
    html = await docxHtml(file.bytes);
  } catch {
    return { kind: 'document' }; // a damaged document: the text path names the parser's error
  }
  for (const table of tablesOfHtml(html, maxRows)) {
    if (!table.ok) return { kind: 'refused', details: table.details };
    const mapped = mapTable(table.table, row);
    if (mapped.ok) return { kind: 'mapped', mapped };
  }
  return { kind: 'document' };
}

/** readRows maps a table file (CSV, spreadsheet, JSON, a DOCX's tables) onto row, within limits. */
export async function readRows(file: FileBytes, row: RowSchema, limits: ReadLimits): Promise<RowsAnswer> {
  const problem = archiveProblem(file.bytes, limits.zip);
  if (problem !== null) return { kind: 'refused', details: problem };
  let read: TableRead;
  switch (fileKind(file)) {
    case 'csv':
      read = readCsv(file.bytes, limits.maxRows);
      break;
    case 'spreadsheet':
      read = readSpreadsheet(file.bytes, limits.maxRows);
      break;
    case 'json':
      read = readJson(file.bytes, limits.maxRows);
      break;
    case 'docx':
      return docxRows(file, row, limits.maxRows);
    default:
      return { kind: 'document' };
  }
  if (!read.ok) return { kind: 'refused', details: read.details };
  return { kind: 'mapped', mapped: mapTable(read.table, row) };
}

/** workbookText is every sheet (at most MAX_SHEETS) as CSV, each clamped to its cells and maxRows rows. */
function workbookText(file: FileBytes, maxRows: number): string {
  const workbook = readWorkbook(file.bytes, maxRows);
  const names = workbook.SheetNames.slice(0, MAX_SHEETS);
  return names
    .map((name) => {
      const sheet = workbook.Sheets[name];
      if (!sheet) return '';
      const wide = clampSheet(sheet, maxRows);
      if (wide !== null) throw new InvalidInputError(`${nameOf(file)}: sheet ${name.slice(0, 40)}: ${wide}`);
      const csv = XLSX.utils.sheet_to_csv(sheet, { blankrows: false });
      return names.length > 1 ? `# ${name}\n${csv}` : csv;
    })
    .join('\n\n');
}

/**
 * readText is a file's text: PDF, DOCX, XLSX/XLS/ODS (as CSV), CSV, JSON and plain text; null for any
 * other type. A zip or Flate bomb, or a sheet too wide, throws InvalidInputError.
 */
export async function readText(file: FileBytes, limits: ReadLimits): Promise<string | null> {
  const problem = archiveProblem(file.bytes, limits.zip);
  if (problem !== null) throw new InvalidInputError(`${nameOf(file)}: ${problem}`);
  switch (fileKind(file)) {
    case 'pdf': {
      // The same bound on unpacked bytes as a zip's, for the PDF's compressed streams (Flate bombs).
      const bomb = pdfProblem(file.bytes, limits.zip.maxUncompressedBytes);
      if (bomb !== null) throw new InvalidInputError(`${nameOf(file)}: ${bomb}`);
      return (await pdfText(file.bytes, limits.maxPages)).trim();
    }
    case 'docx':
      return (await docxText(file.bytes)).trim();
    case 'spreadsheet':
      return workbookText(file, limits.maxRows).trim();
    case 'csv':
    case 'json':
    case 'text':
      return file.bytes
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trim();
    default:
      return null;
  }
}

function bytesOf(file: DocumentFile): FileBytes {
  const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  return { bytes, contentType: file.contentType, filename: file.filename, source: 'stored' };
}

/**
 * MAX_ANSWER_CHARS bounds what one file's extraction may answer (rows' names and values, or text): a few
 * KB can name one 32,000-character shared string in every cell, or give a schema property a 30 KB name,
 * and be mapped into gigabytes the main thread would copy and serialize.
 */
export const MAX_ANSWER_CHARS = 16 * 1024 * 1024;

const TOO_MUCH = `The extracted data is larger than ${MAX_ANSWER_CHARS / 1024 / 1024} MB of text, more than extraction answers: split the file, or ask for fewer or shorter fields`;

/** answerChars measures rows as their JSON would be, roughly (names and text values; 8 for the rest). */
function answerChars(rows: Record<string, unknown>[]): number {
  let total = 0;
  for (const row of rows) {
    for (const [name, value] of Object.entries(row)) {
      total += name.length + (typeof value === 'string' ? value.length : 8);
      if (Array.isArray(value)) for (const item of value) total += typeof item === 'string' ? item.length : 8;
    }
    if (total > MAX_ANSWER_CHARS) return total;
  }
  return total;
}

/** performDocumentTask runs one request of the worker's protocol; an answer past MAX_ANSWER_CHARS is refused. */
export async function performDocumentTask(request: DocumentRequest): Promise<DocumentAnswer> {
  const file = bytesOf(request.file);
  if (request.task === 'rows') {
    const answer = await readRows(file, request.row, request.limits);
    if (answer.kind === 'mapped' && answer.mapped.ok && answerChars(answer.mapped.rows) > MAX_ANSWER_CHARS) {
      return { kind: 'refused', details: TOO_MUCH };
    }
    return answer;
  }
  const text = await readText(file, request.limits);
  if (text !== null && text.length > MAX_ANSWER_CHARS)
    throw new InvalidInputError(`${nameOf(file)}: ${TOO_MUCH}`);
  return { kind: 'text', text };
}
