// `.env.example` is written from the environment schema (`npm run env:example -w server`), so it lists every
// setting the server reads with its default, and a test fails when it falls behind the schema.
import { AppLogsEnvShape } from './app-logs-env';
import { AuthEnvShape } from './auth-env';
import { ExtractionEnvShape } from './extraction-env';
import { FilesEnvShape } from './files-env';
import { FunctionsEnvShape } from './functions-env';
import { HostingEnvShape } from './hosting-env';
import { HttpEnvShape } from './http-env';
import { LimitsEnvShape } from './limits-env';
import { LlmEnvShape } from './llm-env';
import { MailEnvShape } from './mail-env';
import { OutboundEnvShape } from './outbound-env';
import { SecretsEnvShape } from './secrets-env';
import { ServerEnvSchema } from './server-env';

/** SECTIONS group the settings as the schema's files do; the rest are the core server's. */
const SECTIONS: [string, Record<string, unknown>][] = [
  ['Accounts and sign-in', AuthEnvShape],
  ['Limits and budgets', LimitsEnvShape],
  ['HTTP edge', HttpEnvShape],
  ['Page logs', AppLogsEnvShape],
  ['Files', FilesEnvShape],
  ['Hosting an app build', HostingEnvShape],
  ['Outbound calls', OutboundEnvShape],
  ['Secrets', SecretsEnvShape],
  ['E-mail', MailEnvShape],
  ['LLM', LlmEnvShape],
  ['Extraction', ExtractionEnvShape],
  ['Backend functions and automations', FunctionsEnvShape],
];

/** defaultOf is what the schema gives a setting left unset, as text ('' when it has none). */
function defaultOf(name: string): string {
  const field = ServerEnvSchema.shape[name as keyof typeof ServerEnvSchema.shape];
  const parsed = field.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return '';
  const value: unknown = parsed.data;
  if (Array.isArray(value)) return value.join(',');
  // A map setting (LLM_MODEL_MAP) is JSON when set; its empty default is written as nothing.
  if (typeof value === 'object' && value !== null)
    return Object.keys(value).length > 0 ? JSON.stringify(value) : '';
  return String(value);
}

const line = (name: string) => `# ${name}=${defaultOf(name)}`;

/** envExample is the text of `.env.example`: every setting, commented out, at its default. */
export function envExample(): string {
  const grouped = new Set(SECTIONS.flatMap(([, shape]) => Object.keys(shape)));
  const core = Object.keys(ServerEnvSchema.shape).filter((name) => !grouped.has(name));
  const blocks = [
    [
      '# Every setting the server reads, at its default (written by `npm run env:example -w server` from the',
      '# schema: do not edit by hand). What each does: docs/environment.md. Unset is the default;',
      '# secrets have none. Copy to .env and uncomment what you change (`node --env-file=.env …`, systemd',
      '# EnvironmentFile or `docker run --env-file`).',
    ].join('\n'),
    ['# Server', ...core.map(line)].join('\n'),
    ...SECTIONS.map(([title, shape]) => [`# ${title}`, ...Object.keys(shape).map(line)].join('\n')),
  ];
  return `${blocks.join('\n\n')}\n`;
}
