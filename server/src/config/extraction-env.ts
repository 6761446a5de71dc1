import { count, milliseconds } from './env-values';

/**
 * ExtractionEnvShape lists the caps of `Core.ExtractDataFromUploadedFile` (merged into ServerEnvSchema):
 * the largest file read, the most data rows mapped, and the deadline for fetching a foreign URL.
 */
export const ExtractionEnvShape = {
  EXTRACT_MAX_MB: count(10, 1000),
  EXTRACT_MAX_ROWS: count(50_000, 10_000_000),
  EXTRACT_FETCH_TIMEOUT_MS: milliseconds(15_000),
};
