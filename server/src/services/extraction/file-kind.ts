// Which reader a file needs, from its bytes first (magic numbers), then its type, then its name: stored
// CSV and JSON carry no magic, and a remote server's Content-Type may be generic.
import type { FileBytes } from '../files/file-reader';

/** FileKind is the reader a file goes to; `unsupported` files are refused with their type named. */
export type FileKind = 'csv' | 'spreadsheet' | 'json' | 'pdf' | 'docx' | 'text' | 'unsupported';

const ZIP = Buffer.from('PK\u0003\u0004', 'latin1');
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot >= 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

function zipKind(file: FileBytes, extension: string): FileKind {
  // The first entries' names tell an Office or OpenDocument package apart without unzipping it.
  const type = file.contentType.toLowerCase();
  if (type.includes('wordprocessingml')) return 'docx';
  if (type.includes('spreadsheet')) return 'spreadsheet';
  const head = file.bytes.subarray(0, 4096).toString('latin1');
  if (head.includes('word/') || extension === 'docx') return 'docx';
  if (
    head.includes('xl/') ||
    head.includes('opendocument.spreadsheet') ||
    /^(xlsx|xlsm|ods)$/.test(extension)
  ) {
    return 'spreadsheet';
  }
  return 'unsupported';
}

/** fileKind tells which reader file needs. */
export function fileKind(file: FileBytes): FileKind {
  const extension = extensionOf(file.filename);
  const type = file.contentType.toLowerCase();
  if (file.bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (file.bytes.subarray(0, 4).equals(ZIP)) return zipKind(file, extension);
  if (file.bytes.subarray(0, 4).equals(OLE))
    return extension === 'xls' || type.includes('excel') ? 'spreadsheet' : 'unsupported';
  if (type.includes('csv') || type.includes('tab-separated') || /^(csv|tsv)$/.test(extension)) return 'csv';
  if (type.includes('json') || extension === 'json') return 'json';
  if (type.startsWith('text/') || /^(txt|md|markdown)$/.test(extension)) return 'text';
  // Declared as a generic binary but named like text (a remote server without a precise type).
  if (type === 'application/octet-stream' && /^(csv|tsv|json|txt)$/.test(extension)) {
    return extension === 'json' ? 'json' : extension === 'txt' ? 'text' : 'csv';
  }
  return 'unsupported';
}
