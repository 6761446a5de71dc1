// The time range of an app logs read (page views and function calls alike): from/to as the admin sends
// them (a date or a date-time), as the store's bounds.

const DAY_MS = 24 * 60 * 60_000;

/** boundOf reads a range bound; a date-only `to` means the end of that day. */
export function boundOf(value: string, end: boolean): Date {
  const time = new Date(value);
  return end && value.length === 10 ? new Date(time.getTime() + DAY_MS) : time;
}

/** timeRangeOf is a fetchLogs query's from/to as the store's bounds (open ends when absent). */
export function timeRangeOf(query: { from?: string | undefined; to?: string | undefined }): {
  from: string;
  to: string;
} {
  return {
    from: query.from ? boundOf(query.from, false).toISOString() : '-infinity',
    to: query.to ? boundOf(query.to, true).toISOString() : 'infinity',
  };
}
