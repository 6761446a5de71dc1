// The text of a document, for mapping onto a one-string schema here and for InvokeLLM's file_urls:
// PDF (pdf-parse), DOCX (mammoth), spreadsheets and CSV as CSV text, JSON and plain text as they are.
import * as XLSX from '@e965/xlsx';
import { InvalidInputError } from '../../lib/errors';
import type { FileBytes } from '../files/file-reader';
import { readInWorker } from './document-worker';
import { fileKind } from './file-kind';
import { pdfProblem } from './pdf-guard';
import { archiveProblem, DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip-guard';

/** MAX_PDF_PAGES bounds the pages read from one PDF (a cap on work, not on the file's size). */
export const MAX_PDF_PAGES = 500;
/** MAX_SHEETS bounds the sheets of a workbook turned into text. */
const MAX_SHEETS = 20;

/** pdfText reads a PDF's text (its first MAX_PDF_PAGES pages) off the main thread within timeoutMs. */
export function pdfText(bytes: Buffer, timeoutMs?: number): Promise<string> {
  return readInWorker('pdf-text', bytes, { timeoutMs, maxPages: MAX_PDF_PAGES });
}

function workbookText(bytes: Buffer): string {
  const workbook = XLSX.read(bytes, { type: 'buffer', cellDates: true, dense: true });
  const names = workbook.SheetNames.slice(0, MAX_SHEETS);
  return names
    .map((name) => {
      const sheet = workbook.Sheets[name];
      const csv = sheet ? XLSX.utils.sheet_to_csv(sheet, { blankrows: false }) : '';
      return names.length > 1 ? `# ${name}\n${csv}` : csv;
    })
    .join('\n\n');
}

/**
 * documentText is a file's text: PDF, DOCX, XLSX/XLS/ODS (as CSV), CSV, JSON and plain text; null for
 * any other type (images, archives). A zip bomb, or a PDF whose streams unpack past the same limit, throws
 * InvalidInputError (checked before any parser runs); a damaged file throws the parser's error.
 */
export async function documentText(
  file: FileBytes,
  zipLimits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<string | null> {
  const problem = archiveProblem(file.bytes, zipLimits);
  if (problem !== null) throw new InvalidInputError(`${file.filename.slice(0, 100)}: ${problem}`);
  switch (fileKind(file)) {
    case 'pdf': {
      // The same bound on unpacked bytes as a zip's, for the PDF's compressed streams (Flate bombs).
      const bomb = pdfProblem(file.bytes, zipLimits.maxUncompressedBytes);
      if (bomb !== null) throw new InvalidInputError(`${file.filename.slice(0, 100)}: ${bomb}`);
      return (await pdfText(file.bytes)).trim();
    }
    case 'docx':
      return (await readInWorker('docx-text', file.bytes, { maxPages: MAX_PDF_PAGES })).trim();
    case 'spreadsheet':
      return workbookText(file.bytes).trim();
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
