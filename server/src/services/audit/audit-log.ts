// The audit log: every change an operator makes through the admin API, the CLI (with or without a running
// server) and the console, with who made it and the fields before and after. A secret's value never enters
// it: fields whose names say they hold one are dropped here, whatever a caller passes.
import type { AuditLogStore, AuditRow } from '../../store/audit-log-store';

/** AuditActor is who made a change: an admin user, the service role (through the API, or the CLI). */
export type AuditActor =
  { kind: 'admin'; id: string; email: string } | { kind: 'service'; via: 'api' | 'cli' } | { kind: 'cli' };

/** AuditChange is one change: an action (`user.create`), its target (`user:a@b.c`), before and after. */
export interface AuditChange {
  action: string;
  target: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** AuditEntry is a stored change as the admin API lists it. */
export interface AuditEntry extends Required<AuditChange> {
  id: string;
  logged_at: string;
  actor: AuditActor;
}

/** SECRET_FIELD names fields that may hold a credential: never recorded. */
const SECRET_FIELD = /pass|secret|token|value|key|hash|code/i;

/** scrub drops every field of values (at any depth) whose name says it may hold a credential. */
export function scrub(values: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!values) return null;
  const kept = Object.entries(values)
    .filter(([name]) => !SECRET_FIELD.test(name))
    .map(([name, value]) => [
      name,
      value && typeof value === 'object' && !Array.isArray(value)
        ? scrub(value as Record<string, unknown>)
        : value,
    ]);
  return Object.fromEntries(kept);
}

/** AuditLog records and lists changes. */
export interface AuditLog {
  record(appId: string, actor: AuditActor, change: AuditChange): Promise<void>;
  list(appId: string, query: { limit: number; before?: string | undefined }): Promise<AuditEntry[]>;
  prune(cutoff: string, batch: number): Promise<number>;
}

/** AuditFeed is told each stored change: the console's live Logs page (app-logs/log-feed.ts is one). */
export interface AuditFeed {
  publish(kind: 'audit', rows: (AuditEntry & { app_id: string })[]): void;
}

/**
 * createAuditLog returns the audit log on its store; feed (the server's, not the CLI's) is told each
 * stored change.
 */
export function createAuditLog(store: AuditLogStore, feed?: AuditFeed): AuditLog {
  const entryOf = (row: AuditRow): AuditEntry => ({
    id: row.id,
    logged_at: new Date(row.logged_at).toISOString(),
    actor: row.actor as AuditActor,
    action: row.action,
    target: row.target,
    before: (row.before ?? null) as Record<string, unknown> | null,
    after: (row.after ?? null) as Record<string, unknown> | null,
  });
  return {
    async record(appId, actor, change) {
      const stored = await store.insert({
        appId,
        actor,
        action: change.action,
        target: change.target,
        before: scrub(change.before),
        after: scrub(change.after),
      });
      feed?.publish('audit', [{ app_id: appId, ...entryOf(stored) }]);
    },
    async list(appId, query) {
      return (await store.list(appId, query)).map(entryOf);
    },
    prune: (cutoff, batch) => store.prune(cutoff, batch),
  };
}
