// The operator CLI's command line, read in one place: the command and its options, checked before anything
// is loaded or opened, so a typo costs no database start and each command gets typed, valid input.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { formatIssues } from '../lib/validation';
import { AdminCreateUserSchema, AdminUpdateUserSchema, AppSettingsSchema } from '../schemas/auth';
import { secretNameProblem } from '../services/secrets/secret-names';
import { CONNECTOR_TYPE } from '../schemas/connector-files';
import {
  CONNECTORS_USAGE,
  ENTITIES_USAGE,
  FILES_USAGE,
  FUNCTIONS_USAGE,
  LOGS_USAGE,
  SECRETS_USAGE,
  USAGE,
} from './usage';

/** CLI_OPTIONS are the options of every command; parseArgs refuses any other (`Unknown option '--value'`). */
const CLI_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  email: { type: 'string' },
  password: { type: 'string' },
  role: { type: 'string' },
  name: { type: 'string' },
  visibility: { type: 'string' },
  'self-signup': { type: 'string' },
  'dry-run': { type: 'boolean' },
  'min-age-hours': { type: 'string' },
  app: { type: 'string' },
  function: { type: 'string' },
  limit: { type: 'string' },
  follow: { type: 'boolean' },
} as const;

/** DEFAULT_MIN_AGE_HOURS: `files prune` spares younger uploads (a form's fresh upload has no record yet). */
const DEFAULT_MIN_AGE_HOURS = 24;
/** DEFAULT_LOGS_LIMIT is how many calls `logs` prints without --limit. */
const DEFAULT_LOGS_LIMIT = 20;

const SelfSignupSchema = z.enum(['on', 'off']).optional();
const MinAgeHoursSchema = z.coerce.number().min(0);
const LogsLimitSchema = z.coerce.number().int().min(1).max(1000);

export type AdminCreateUser = z.infer<typeof AdminCreateUserSchema>;
export type AdminUpdateUser = z.infer<typeof AdminUpdateUserSchema>;
export type AppSettings = z.infer<typeof AppSettingsSchema>;

/** SecretsAction is what `secrets` does: list the names, or set or delete one secret. */
export type SecretsAction = { action: 'list' } | { action: 'set' | 'delete'; secret: string };

/** ConnectorsAction is what `connectors` does: list them, or connect or disconnect the app's connection. */
export type ConnectorsAction = { action: 'list' } | { action: 'connect' | 'disconnect'; connector: string };

/** CliCommand is one command with its checked input; set-role, disable-user and enable-user are update-user. */
export type CliCommand =
  | { name: 'help' }
  | { name: 'create-user'; user: AdminCreateUser }
  | { name: 'update-user'; change: AdminUpdateUser }
  | { name: 'app-settings'; settings: AppSettings }
  | { name: 'service-token' }
  | { name: 'migrate' }
  | { name: 'files-prune'; dryRun: boolean; minAgeHours: number }
  | ({ name: 'secrets' } & SecretsAction)
  | ({ name: 'connectors' } & ConnectorsAction)
  | { name: 'functions-install' }
  | { name: 'logs'; functionName: string | undefined; limit: number; follow: boolean }
  | { name: 'entities-infer'; dryRun: boolean };

/** CliArguments is the command and `--app PATH`, a hosted app's repository, as typed (not yet resolved). */
export interface CliArguments {
  command: CliCommand;
  app: string | undefined;
}

/** readArgv splits argv into positionals and options (refusing unknown options and a string option's missing value). */
function readArgv(argv: readonly string[]) {
  return parseArgs({ args: [...argv], allowPositionals: true, options: CLI_OPTIONS });
}

type CliValues = ReturnType<typeof readArgv>['values'];

/** checked is value as schema parses it, or an error naming each bad field (`email: is required`). */
function checked<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(formatIssues(result.error));
  return result.data;
}

/** option is value as schema parses it, or the error message given. */
function option<S extends z.ZodType>(schema: S, value: unknown, message: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(message);
  return result.data;
}

function appSettingsOf(values: CliValues): AppSettings {
  const signup = option(SelfSignupSchema, values['self-signup'], '--self-signup must be on or off');
  return checked(AppSettingsSchema, {
    ...(values.visibility ? { visibility: values.visibility } : {}),
    ...(signup ? { self_signup: signup === 'on' } : {}),
  });
}

function secretsOf(action: string | undefined, secret: string | undefined): CliCommand {
  if (action === 'list') return { name: 'secrets', action };
  if ((action !== 'set' && action !== 'delete') || !secret) throw new Error(SECRETS_USAGE);
  // Checked before a value is asked for, so a typo does not cost a paste.
  const problem = secretNameProblem(secret);
  if (problem) throw new Error(problem);
  return { name: 'secrets', action, secret };
}

function connectorsOf(action: string | undefined, connector: string | undefined): CliCommand {
  if (action === 'list') return { name: 'connectors', action };
  if ((action !== 'connect' && action !== 'disconnect') || !connector || !CONNECTOR_TYPE.test(connector)) {
    throw new Error(CONNECTORS_USAGE);
  }
  return { name: 'connectors', action, connector };
}

function commandOf(positionals: readonly string[], values: CliValues): CliCommand {
  const [name, action, target] = positionals;
  if (!name || name === 'help' || values.help) return { name: 'help' };
  const dryRun = values['dry-run'] === true;
  switch (name) {
    case 'create-user':
      return {
        name,
        user: checked(AdminCreateUserSchema, {
          email: values.email,
          password: values.password,
          ...(values.role ? { role: values.role } : {}),
          ...(values.name ? { full_name: values.name } : {}),
        }),
      };
    case 'set-role':
      return {
        name: 'update-user',
        change: checked(AdminUpdateUserSchema, { email: values.email, role: values.role }),
      };
    case 'disable-user':
    case 'enable-user':
      return {
        name: 'update-user',
        change: checked(AdminUpdateUserSchema, { email: values.email, disabled: name === 'disable-user' }),
      };
    case 'app-settings':
      return { name, settings: appSettingsOf(values) };
    case 'service-token':
    case 'migrate':
      return { name };
    case 'files': {
      if (action !== 'prune') throw new Error(FILES_USAGE);
      const hours = values['min-age-hours'] ?? DEFAULT_MIN_AGE_HOURS;
      const minAgeHours = option(
        MinAgeHoursSchema,
        hours,
        '--min-age-hours must be a number of hours, 0 or more',
      );
      return { name: 'files-prune', dryRun, minAgeHours };
    }
    case 'secrets':
      return secretsOf(action, target);
    case 'connectors':
      return connectorsOf(action, target);
    case 'functions':
      if (action !== 'install') throw new Error(FUNCTIONS_USAGE);
      return { name: 'functions-install' };
    case 'logs': {
      const limit = option(
        LogsLimitSchema,
        values.limit ?? DEFAULT_LOGS_LIMIT,
        `--limit must be 1–1000\n${LOGS_USAGE}`,
      );
      return { name, functionName: values.function, limit, follow: values.follow === true };
    }
    case 'entities':
      if (action !== 'infer') throw new Error(ENTITIES_USAGE);
      return { name: 'entities-infer', dryRun };
    default:
      throw new Error(`Unknown command "${name}".\n${USAGE}`);
  }
}

/** parseCliArguments reads argv (without node and the script): the command, checked, and `--app`. */
export function parseCliArguments(argv: readonly string[]): CliArguments {
  const { positionals, values } = readArgv(argv);
  return { command: commandOf(positionals, values), app: values.app };
}
