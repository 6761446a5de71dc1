// What `npm start` prints at a terminal instead of its start-up log lines: the addresses, the modes in use
// and the warnings with what to do, in a dozen lines a person reads at a glance. JSON lines stay the output
// everywhere else (pipes, containers, CI): see logStartup.
import type { StartupWarning } from '../services/admin/app-overview';

/** SummaryFacts are what the summary names, worked out by logStartup. */
export interface SummaryFacts {
  appName: string;
  /** siteUrl is where users open the site (PUBLIC_URL, else this server's own address). */
  siteUrl: string;
  appId: string;
  database: string;
  realtime: string;
  maxSockets: number;
  mail: string;
  /** llm is the provider's host, or null when LLM_PROVIDER_URL is unset. */
  llm: string | null;
  warnings: readonly StartupWarning[];
  /** admins is how many admins the app has: with none, the summary says how to make the first. */
  admins: number;
}

/** FIRST_ADMIN_COMMAND makes the first admin, with or without the server running. */
export const FIRST_ADMIN_COMMAND =
  "npm run cli -- create-user --email you@example.com --password '…' --role admin";

/** startupSummary is the text printed at a terminal once the server listens. */
export function startupSummary(facts: SummaryFacts): string {
  const site = facts.siteUrl.replace(/\/$/, '');
  const rows: [string, string][] = [
    ['Site', `${site}/`],
    ['Console', `${site}/_/`],
    ['API', `${site}/api/apps/${facts.appId}`],
    ['Database', facts.database],
    ['Realtime', `${facts.realtime}, up to ${facts.maxSockets.toLocaleString('en-US')} sockets`],
    ['Mail', facts.mail],
    ['LLM', facts.llm ?? 'none (set LLM_PROVIDER_URL for InvokeLLM and agents)'],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = [
    `${facts.appName} is running`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
  ];
  if (facts.admins === 0) {
    lines.push('', 'No admin yet: make the first one to sign in to the console:', `  ${FIRST_ADMIN_COMMAND}`);
  }
  if (facts.warnings.length > 0) {
    lines.push('', `${facts.warnings.length === 1 ? 'One warning' : `${facts.warnings.length} warnings`}:`);
    for (const warning of facts.warnings) lines.push(`  ! ${warning.message}`, `    → ${warning.action}`);
  }
  lines.push(
    '',
    'Below: warnings and errors only (LOG_LEVEL=info adds each request; LOG_FORMAT=json writes JSON lines).',
  );
  return `${lines.join('\n')}\n`;
}
