import { readFileSync } from 'node:fs';

// Every realtime socket holds a file descriptor. At the process's open-files limit, accept() fails for
// HTTP requests and database connections too, so the socket cap is taken below it with room for those.

/** SOCKET_CAP_WITHOUT_LIMIT is the cap where the limit cannot be read (not Linux): a common 10,240-file limit, less room. */
export const SOCKET_CAP_WITHOUT_LIMIT = 9_000;
/** MAX_RESERVED_FILES is the most descriptors kept back for HTTP, the database, logs and Deno functions. */
const MAX_RESERVED_FILES = 1_024;

/**
 * readOpenFilesLimit is the soft "Max open files" of this process from /proc/self/limits (Linux), or null
 * where that cannot be read or says unlimited. limitsText replaces the file (tests).
 */
export function readOpenFilesLimit(limitsText?: string): number | null {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return null;
    }
  }
  const line = text.split('\n').find((candidate) => candidate.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  if (!soft || !/^\d+$/.test(soft)) return null;
  return Number(soft);
}

/**
 * socketCapFor is the default REALTIME_MAX_SOCKETS for an open-files limit: the limit less a quarter of it,
 * at most MAX_RESERVED_FILES, kept back (1,024 files → 768 sockets; 20,000 → 18,976).
 */
export function socketCapFor(openFilesLimit: number | null): number {
  if (openFilesLimit === null) return SOCKET_CAP_WITHOUT_LIMIT;
  const reserved = Math.min(MAX_RESERVED_FILES, Math.floor(openFilesLimit / 4));
  return Math.max(1, openFilesLimit - reserved);
}

/** RealtimeCapacity is the socket cap in force and the open-files limit it was derived from (null: unread). */
export interface RealtimeCapacity {
  openFilesLimit: number | null;
  maxSockets: number;
}

/** realtimeCapacity is REALTIME_MAX_SOCKETS when set, else the cap the open-files limit implies. */
export function realtimeCapacity(configured: number | undefined): RealtimeCapacity {
  const openFilesLimit = readOpenFilesLimit();
  return { openFilesLimit, maxSockets: configured ?? socketCapFor(openFilesLimit) };
}
