// Core.ExtractDataFromUploadedFile: read the file (ours, or a public URL through the guard), then map
// tables onto the schema deterministically; documents give text, which fills a one-string schema or goes
// to the LLM when one is configured. Problems with the file's content are answered as
// `{status: "error", details}` (what apps check); problems reaching the file are thrown (400/404/504).
import { InvalidInputError, OutboundLimitError, UpstreamError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { FileBytes, FileReader } from '../files/file-reader';
import type { RowsAnswer } from './document-protocol';
import { documentText, MAX_PDF_PAGES } from './file-text';
import type { RowError } from './map-table';
import { shapeOf } from './schema-shape';
import { tableRows } from './table-rows';

/**
 * UNPACK_RATIO bounds how much a zip-based file (XLSX, ODS, DOCX) or a PDF's compressed streams may unpack
 * to, times EXTRACT_MAX_MB.
 */
export const UNPACK_RATIO = 20;

/** ExtractionResult is the integration's answer: the output, or why there is none. */
export type ExtractionResult =
  | { status: 'success'; output: unknown; details?: string; row_errors?: RowError[] }
  | { status: 'error'; details: string; output: null; row_errors?: RowError[] };

/** ExtractionCall is whose extraction it is: the app, the caller and its IP (whose LLM shares it spends). */
export interface ExtractionCall {
  appId: string;
  caller: Caller;
  ip?: string | undefined;
}

/**
 * StructuredExtractor fills a JSON schema from a document's text (the LLM, for call's app and caller, who
 * spend its budgets); absent without a provider.
 */
export type StructuredExtractor = (text: string, schema: object, call: ExtractionCall) => Promise<unknown>;

export interface ExtractionLimits {
  maxBytes: number;
  maxRows: number;
  fetchTimeoutMs: number;
}

export interface ExtractionDeps {
  readFileUrl: FileReader;
  limits: ExtractionLimits;
  structured?: StructuredExtractor | undefined;
}

/** ExtractInput is what to extract: the file's URL and the JSON schema to fill from it. */
export interface ExtractInput {
  file_url: string;
  json_schema: object;
}

/** ExtractionService is ExtractDataFromUploadedFile: a file read, then mapped onto a JSON schema. */
export interface ExtractionService {
  /** extract reads file_url in appId and fills json_schema from it. */
  extract(appId: string, input: ExtractInput, caller?: Caller, ip?: string): Promise<ExtractionResult>;
}

const failure = (details: string, rowErrors?: RowError[]): ExtractionResult => ({
  status: 'error',
  details,
  output: null,
  ...(rowErrors && rowErrors.length > 0 ? { row_errors: rowErrors } : {}),
});

function summary(rejected: number, errors: RowError[]): string {
  const shown = errors
    .slice(0, 5)
    .map((error) => `row ${error.row} ${error.field}: ${error.message}`)
    .join('; ');
  return `${rejected} row${rejected === 1 ? '' : 's'} left out: ${shown}${errors.length > 5 ? '; …' : ''}`;
}

/** createExtractionService builds the extraction on the file reader, its caps and the optional LLM. */
export function createExtractionService(deps: ExtractionDeps): ExtractionService {
  const { limits } = deps;
  const zipLimits = { maxEntries: 10_000, maxUncompressedBytes: UNPACK_RATIO * limits.maxBytes };

  async function fromText(
    file: FileBytes,
    schema: object,
    shape: ReturnType<typeof shapeOf>,
    call: ExtractionCall,
  ): Promise<ExtractionResult> {
    let text: string | null;
    try {
      text = await documentText(file, { ...zipLimits, maxRows: limits.maxRows });
    } catch (error) {
      if (error instanceof InvalidInputError) return failure(error.message);
      return failure(
        `The file ${file.filename.slice(0, 100)} could not be read: ${(error as Error).message.slice(0, 200)}`,
      );
    }
    if (text === null) {
      return failure(
        `The file ${file.filename.slice(0, 100)} (${file.contentType}) is not a type extraction reads: CSV, TSV, XLSX, XLS, ODS, JSON, PDF, DOCX or text`,
      );
    }
    if (shape.kind === 'text')
      return { status: 'success', output: shape.field === null ? text : { [shape.field]: text } };
    if (!deps.structured) {
      return failure(
        'Extracting this schema from a document needs a language model: set LLM_PROVIDER_URL on the server (tables in CSV, XLSX or JSON files and one-text-field schemas work without one)',
      );
    }
    try {
      return { status: 'success', output: await deps.structured(text, schema, call) };
    } catch (error) {
      // What the model answered (or failed to) is about this file: answered as apps check it. A timeout,
      // a refused caller or a spent budget stay HTTP errors.
      if (error instanceof UpstreamError) return failure(error.message);
      throw error;
    }
  }

  return {
    /** extract reads file_url in appId and fills json_schema from it. */
    async extract(
      appId: string,
      input: ExtractInput,
      caller: Caller = { kind: 'anonymous' },
      ip?: string,
    ): Promise<ExtractionResult> {
      const call: ExtractionCall = { appId, caller, ip };
      const file = await deps
        .readFileUrl(appId, input.file_url, { maxBytes: limits.maxBytes, timeoutMs: limits.fetchTimeoutMs })
        .catch((error: unknown) => {
          if (error instanceof OutboundLimitError && error.reason === 'size') {
            const megabytes = Math.round((limits.maxBytes / 1024 / 1024) * 100) / 100;
            throw new InvalidInputError(
              `The file is larger than ${megabytes} MB, the most extraction reads (EXTRACT_MAX_MB)`,
            );
          }
          throw error;
        });
      const shape = shapeOf(input.json_schema);
      if (shape.kind !== 'rows') return fromText(file, input.json_schema, shape, call);
      let read: RowsAnswer;
      try {
        read = await tableRows(file, shape.row, {
          maxRows: limits.maxRows,
          maxPages: MAX_PDF_PAGES,
          zip: zipLimits,
        });
      } catch (error) {
        // Over the reader's time or memory: said here rather than tried again as text.
        if (error instanceof InvalidInputError) return failure(error.message);
        return failure(
          `The file ${file.filename.slice(0, 100)} could not be read: ${(error as Error).message.slice(0, 200)}`,
        );
      }
      if (read.kind === 'document') return fromText(file, input.json_schema, shape, call);
      if (read.kind === 'refused') return failure(read.details);
      const { mapped } = read;
      if (!mapped.ok) return failure(mapped.details);
      if (mapped.rows.length === 0 && mapped.rejected > 0) {
        return failure(`No row fits the schema: ${summary(mapped.rejected, mapped.errors)}`, mapped.errors);
      }
      const output = shape.wrapIn === null ? mapped.rows : { [shape.wrapIn]: mapped.rows };
      if (mapped.rejected === 0) return { status: 'success', output };
      return {
        status: 'success',
        output,
        details: summary(mapped.rejected, mapped.errors),
        row_errors: mapped.errors,
      };
    },
  };
}
