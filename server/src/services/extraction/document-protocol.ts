// What the main thread asks the document worker and what it answers: plain data only (structured clone).
import type { MappedTable } from './map-table';
import type { RowSchema } from './schema-shape';
import type { ZipLimits } from './zip-guard';

/** DocumentFile is a file as the worker gets it (its bytes transferred, not shared). */
export interface DocumentFile {
  bytes: Uint8Array;
  contentType: string;
  filename: string;
}

/** ReadLimits bound what one file may make the worker read. */
export interface ReadLimits {
  maxRows: number;
  maxPages: number;
  zip: ZipLimits;
}

/** DocumentRequest is one task: a row schema's rows mapped from a table, or a document's text. */
export type DocumentRequest =
  | { task: 'rows'; file: DocumentFile; row: RowSchema; limits: ReadLimits }
  | { task: 'text'; file: DocumentFile; limits: ReadLimits };

/**
 * RowsAnswer is the mapped rows; or why the file is refused (`details`); or `document` when it holds no
 * table for the schema (a PDF, a DOCX without a matching table, a damaged DOCX), for the text path.
 */
export type RowsAnswer =
  { kind: 'mapped'; mapped: MappedTable } | { kind: 'refused'; details: string } | { kind: 'document' };

/** DocumentAnswer is a task's result; `text` is null for a type that has none (an image, an archive). */
export type DocumentAnswer = RowsAnswer | { kind: 'text'; text: string | null };

/** WorkerReply answers request `id`: the answer, or an error (`refused` when it is the caller's to fix). */
export type WorkerReply =
  { id: number; answer: DocumentAnswer } | { id: number; error: string; refused: boolean };
