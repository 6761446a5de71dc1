// The CLI's command line: each command's typed input, and the messages a wrong line gets.
import { describe, expect, it } from 'vitest';
import { parseCliArguments } from './arguments';
import { LOGS_USAGE, SECRETS_USAGE } from './usage';

const commandOf = (...argv: string[]) => parseCliArguments(argv).command;
const failureOf = (...argv: string[]) => {
  try {
    parseCliArguments(argv);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('parseCliArguments', () => {
  it('reads help from no command, `help`, --help and -h', () => {
    for (const argv of [[], ['help'], ['--help'], ['create-user', '-h']]) {
      expect(parseCliArguments(argv).command).toEqual({ name: 'help' });
    }
  });

  it('checks a new user with the admin API schema (email trimmed and lower-cased, role and name optional)', () => {
    expect(commandOf('create-user', '--email', ' Ann@Example.com ', '--password', 'long enough')).toEqual({
      name: 'create-user',
      user: { email: 'ann@example.com', password: 'long enough' },
    });
    const named = commandOf(
      'create-user',
      '--email',
      'a@b.co',
      '--password',
      '12345678',
      '--role',
      'admin',
      '--name',
      'Ann',
    );
    expect(named).toEqual({
      name: 'create-user',
      user: { email: 'a@b.co', password: '12345678', role: 'admin', full_name: 'Ann' },
    });
    expect(failureOf('create-user', '--email', 'a@b.co')).toBe('password: is required');
    expect(failureOf('create-user', '--email', 'nope', '--password', 'short')).toBe(
      'email: must be a valid email address; password: must be at least 8 characters',
    );
  });

  it('reads set-role, disable-user and enable-user as one user change', () => {
    expect(commandOf('set-role', '--email', 'a@b.co', '--role', 'editor')).toEqual({
      name: 'update-user',
      change: { email: 'a@b.co', role: 'editor' },
    });
    expect(commandOf('disable-user', '--email', 'a@b.co')).toEqual({
      name: 'update-user',
      change: { email: 'a@b.co', disabled: true },
    });
    expect(commandOf('enable-user', '--email', 'a@b.co')).toMatchObject({ change: { disabled: false } });
    expect(failureOf('set-role', '--email', 'a@b.co', '--role', '1st')).toMatch(/^role: must be a role name/);
  });

  it('reads app settings, with --self-signup on or off only', () => {
    expect(commandOf('app-settings', '--visibility', 'private_with_login', '--self-signup', 'off')).toEqual({
      name: 'app-settings',
      settings: { visibility: 'private_with_login', self_signup: false },
    });
    expect(commandOf('app-settings')).toEqual({ name: 'app-settings', settings: {} });
    expect(failureOf('app-settings', '--self-signup', 'yes')).toBe('--self-signup must be on or off');
    expect(failureOf('app-settings', '--visibility', 'open')).toMatch(
      /^visibility: must be public_without_login/,
    );
  });

  it('reads files prune with its age (24 h unless told) and --dry-run', () => {
    expect(commandOf('files', 'prune')).toEqual({ name: 'files-prune', dryRun: false, minAgeHours: 24 });
    expect(commandOf('files', 'prune', '--dry-run', '--min-age-hours', '0.5')).toEqual({
      name: 'files-prune',
      dryRun: true,
      minAgeHours: 0.5,
    });
    for (const hours of ['-1', 'soon', 'Infinity']) {
      expect(failureOf('files', 'prune', `--min-age-hours=${hours}`)).toBe(
        '--min-age-hours must be a number of hours, 0 or more',
      );
    }
    expect(failureOf('files', 'list')).toMatch(/^Usage: npm run cli -- files prune/);
  });

  it('reads secrets actions and checks the name before any value is asked for', () => {
    expect(commandOf('secrets', 'list')).toEqual({ name: 'secrets', action: 'list' });
    expect(commandOf('secrets', 'set', 'API_KEY')).toEqual({
      name: 'secrets',
      action: 'set',
      secret: 'API_KEY',
    });
    expect(commandOf('secrets', 'delete', 'API_KEY')).toMatchObject({ action: 'delete', secret: 'API_KEY' });
    expect(failureOf('secrets', 'set')).toBe(SECRETS_USAGE);
    expect(failureOf('secrets', 'show', 'API_KEY')).toBe(SECRETS_USAGE);
    expect(failureOf('secrets', 'set', 'resend-key')).toMatch(/Secret name "resend-key" is not valid/);
    expect(commandOf('secrets', 'set', 'google_oauth_client_secret')).toMatchObject({
      secret: 'google_oauth_client_secret',
    });
    expect(failureOf('secrets', 'set', 'DENO_DIR')).toMatch(/reserved/);
    // A value never comes from an argument (shell history, `ps`).
    expect(failureOf('secrets', 'set', 'API_KEY', '--value', 'x')).toMatch(/Unknown option '--value'/);
  });

  it('reads logs with a limit of 1 to 1000 (20 unless told), a function and --follow', () => {
    expect(commandOf('logs')).toEqual({ name: 'logs', functionName: undefined, limit: 20, follow: false });
    expect(commandOf('logs', '--function', 'chatty', '--limit', '1000', '--follow')).toEqual({
      name: 'logs',
      functionName: 'chatty',
      limit: 1000,
      follow: true,
    });
    for (const limit of ['0', '1001', '2.5', 'all']) {
      expect(failureOf('logs', '--limit', limit)).toBe(`--limit must be 1–1000\n${LOGS_USAGE}`);
    }
  });

  it('reads functions install, entities infer, migrate and service-token, and --app for any command', () => {
    expect(commandOf('functions', 'install')).toEqual({ name: 'functions-install' });
    expect(failureOf('functions')).toBe('Usage: npm run cli -- functions install');
    expect(parseCliArguments(['entities', 'infer', '--app', '../my-app', '--dry-run'])).toEqual({
      command: { name: 'entities-infer', dryRun: true },
      app: '../my-app',
    });
    expect(failureOf('entities', 'guess')).toMatch(/^Usage: npm run cli -- entities infer/);
    expect(parseCliArguments(['migrate'])).toEqual({ command: { name: 'migrate' }, app: undefined });
    expect(commandOf('service-token', '--app', '/srv/app')).toEqual({ name: 'service-token' });
  });

  it('names an unknown command and prints the usage after it', () => {
    expect(failureOf('make-admin')).toMatch(
      /^Unknown command "make-admin"\.\nUsage: npm run cli -- <command>/,
    );
  });
});
