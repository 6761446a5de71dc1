// `Core.ExtractDataFromUploadedFile`: text, CSV, spreadsheets and documents read into the caller's schema;
// documents beyond one text field go to the LLM when a provider is set.
import { extractionHandlers } from '../../routes/core-handlers';
import { createExtractionService } from '../../services/extraction/extraction-service';
import type { FileReader } from '../../services/files/file-reader';
import type { LlmService } from '../../services/llm/llm-service';
import type { Part, Shared } from './part';

/** buildExtractionPart builds extraction on the file reader and, when configured, the LLM. */
export function buildExtractionPart(
  shared: Shared,
  files: { readFileUrl: FileReader },
  llm: { llm: LlmService },
): Part {
  const { config } = shared;
  const extraction = createExtractionService({
    structured: llm.llm.configured
      ? (text, schema, call) => llm.llm.structured(call.appId, call.caller, text, schema, call.ip)
      : undefined,
    readFileUrl: files.readFileUrl,
    limits: {
      maxBytes: config.EXTRACT_MAX_MB * 1024 * 1024,
      maxRows: config.EXTRACT_MAX_ROWS,
      fetchTimeoutMs: config.EXTRACT_FETCH_TIMEOUT_MS,
    },
  });
  return { name: 'extraction', coreHandlers: extractionHandlers(extraction) };
}
