/** httpStatusOf reads an HTTP status from a Base44Error, an axios error or anything shaped like them. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const candidate = error as {
    status?: unknown;
    response?: { status?: unknown };
    originalError?: { response?: { status?: unknown } };
  };
  for (const status of [
    candidate.status,
    candidate.response?.status,
    candidate.originalError?.response?.status,
  ]) {
    if (typeof status === 'number') return status;
  }
  return undefined;
}
