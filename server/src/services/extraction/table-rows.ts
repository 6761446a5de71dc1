// A table file's rows mapped onto a row schema, read and mapped in the document worker: only the mapped
// rows come back to this thread (every cell of a large file would cost the event loop to receive).
import type { FileBytes } from '../files/file-reader';
import type { ReadLimits, RowsAnswer } from './document-protocol';
import { runDocumentTask } from './document-worker';
import { whatFile } from './file-text';
import type { RowSchema } from './schema-shape';

/** tableRows maps file's table onto row within limits; see RowsAnswer. Over the deadline or heap: InvalidInputError. */
export async function tableRows(file: FileBytes, row: RowSchema, limits: ReadLimits): Promise<RowsAnswer> {
  const answer = await runDocumentTask({ task: 'rows', file, row, limits }, { what: whatFile(file) });
  return answer.kind === 'text' ? { kind: 'document' } : answer;
}
