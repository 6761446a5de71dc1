import type { ReactNode } from 'react';
import { CallOutput } from './call-output';
import type { AuditEntryRow, FunctionCall, PageViewRow } from './logs-api';

// The three logs' tables: one row per entry, newest first, the time in the viewer's zone.

const TH = 'pr-4 pb-1 text-left text-gray-300';
const TD = 'py-2 pr-4 align-top';

function When({ iso }: { iso: string }) {
  return <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;
}

function Table({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="min-w-[36rem] text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((name) => (
              <th key={name} scope="col" className={TH}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** FunctionCallsTable lists calls, each opening to its output. */
export function FunctionCallsTable({ calls }: { calls: FunctionCall[] }) {
  return (
    <Table
      caption="Function calls"
      head={['Time', 'Function', 'Status', 'Duration', 'Request id', 'Trigger', 'User', '']}
    >
      {calls.map((call) => (
        <tr key={call.id} className="border-t border-royal-700">
          <td className={TD}>
            <When iso={call.created_date} />
          </td>
          <td className={`${TD} font-mono`}>{call.function}</td>
          <td className={call.status >= 400 ? `${TD} text-red-200` : TD}>{call.status}</td>
          <td className={TD}>{call.duration_ms} ms</td>
          <td className={`${TD} font-mono break-all`}>{call.request_id ?? '—'}</td>
          <td className={TD}>{call.trigger}</td>
          <td className={`${TD} font-mono break-all`}>
            {call.user_id ?? (call.trigger === 'automation' ? '—' : 'anonymous')}
          </td>
          <td className={TD}>
            <CallOutput call={call} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** PageViewsTable lists page views. */
export function PageViewsTable({ views }: { views: PageViewRow[] }) {
  return (
    <Table caption="Page views" head={['Time', 'Page', 'User', 'Referrer']}>
      {views.map((view) => (
        <tr key={view.id} className="border-t border-royal-700">
          <td className={TD}>
            <When iso={view.created_date} />
          </td>
          <td className={`${TD} font-mono`}>{view.page}</td>
          <td className={`${TD} font-mono break-all`}>{view.user_id ?? 'anonymous'}</td>
          <td className={`${TD} break-all`}>{view.referrer ?? '—'}</td>
        </tr>
      ))}
    </Table>
  );
}

/** actorOf names who made a change: the admin's email, or the service role and how it came. */
function actorOf(actor: unknown): string {
  if (!actor || typeof actor !== 'object') return 'unknown';
  const fields = actor as Record<string, unknown>;
  if (typeof fields.email === 'string') return fields.email;
  if (typeof fields.via === 'string') return `service (${fields.via})`;
  return typeof fields.kind === 'string' ? fields.kind : 'unknown';
}

/** AuditTable lists changes, each with its fields before and after behind a disclosure. */
export function AuditTable({ entries }: { entries: AuditEntryRow[] }) {
  return (
    <Table caption="Audit log" head={['Time', 'Who', 'Action', 'Target', 'Change']}>
      {entries.map((entry) => (
        <tr key={entry.id} className="border-t border-royal-700">
          <td className={TD}>
            <When iso={entry.logged_at} />
          </td>
          <td className={`${TD} break-all`}>{actorOf(entry.actor)}</td>
          <td className={`${TD} font-mono`}>{entry.action}</td>
          <td className={`${TD} font-mono break-all`}>{entry.target}</td>
          <td className={TD}>
            <details>
              <summary className="cursor-pointer underline">Before and after</summary>
              <pre className="mt-1 max-w-md overflow-auto text-xs whitespace-pre-wrap">
                {JSON.stringify({ before: entry.before, after: entry.after }, null, 2)}
              </pre>
            </details>
          </td>
        </tr>
      ))}
    </Table>
  );
}
