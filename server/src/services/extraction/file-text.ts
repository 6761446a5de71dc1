// The text of a document, for mapping onto a one-string schema here and for InvokeLLM's file_urls:
// PDF (pdf-parse), DOCX (mammoth), spreadsheets and CSV as CSV text, JSON and plain text as they are.
// Read in the document worker (see document-worker.ts), guards included.
import type { FileBytes } from '../files/file-reader';
import type { ReadLimits } from './document-protocol';
import { runDocumentTask } from './document-worker';
import { fileKind } from './file-kind';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip-guard';

/** MAX_PDF_PAGES bounds the pages read from one PDF (a cap on work, not on the file's size). */
export const MAX_PDF_PAGES = 500;
/** MAX_TEXT_ROWS is the rows of each sheet turned into text when the caller gives no EXTRACT_MAX_ROWS. */
export const MAX_TEXT_ROWS = 50_000;

/** whatFile names a file's kind in messages about reading it ("The PDF took longer than…"). */
export function whatFile(file: FileBytes): string {
  switch (fileKind(file)) {
    case 'pdf':
      return 'The PDF';
    case 'spreadsheet':
      return 'The spreadsheet';
    case 'csv':
      return 'The CSV file';
    case 'json':
      return 'The JSON file';
    default:
      return 'The document';
  }
}

/** TextLimits bound a document's reading: its zip parts and unpacked bytes, and each sheet's rows. */
export interface TextLimits extends ZipLimits {
  maxRows?: number;
}

/**
 * documentText is a file's text: PDF, DOCX, XLSX/XLS/ODS (as CSV), CSV, JSON and plain text; null for
 * any other type (images, archives). A zip bomb, a PDF whose streams unpack past the same limit, a sheet
 * wider than MAX_COLUMNS, or a file over the worker's deadline or heap throws InvalidInputError; a
 * damaged file throws the parser's error.
 */
export async function documentText(
  file: FileBytes,
  limits: TextLimits = DEFAULT_ZIP_LIMITS,
  timeoutMs?: number,
): Promise<string | null> {
  const readLimits: ReadLimits = {
    maxRows: limits.maxRows ?? MAX_TEXT_ROWS,
    maxPages: MAX_PDF_PAGES,
    zip: { maxEntries: limits.maxEntries, maxUncompressedBytes: limits.maxUncompressedBytes },
  };
  const answer = await runDocumentTask(
    { task: 'text', file: file, limits: readLimits },
    { what: whatFile(file), ...(timeoutMs === undefined ? {} : { timeoutMs }) },
  );
  return answer.kind === 'text' ? answer.text : null;
}

/** pdfText reads a PDF's text (its first MAX_PDF_PAGES pages) in the document worker within timeoutMs. */
export async function pdfText(bytes: Buffer, timeoutMs?: number): Promise<string> {
  const file: FileBytes = {
    bytes,
    filename: 'document.pdf',
    contentType: 'application/pdf',
    source: 'stored',
  };
  return (await documentText(file, DEFAULT_ZIP_LIMITS, timeoutMs)) ?? '';
}
