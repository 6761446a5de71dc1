// The operator CLI from its arguments to its report: the command line, the app and a server running on its
// DATA_DIR (then commands go through that server's API, since PGlite admits one process), then the command.
import { resolve } from 'node:path';
import { parseCliArguments } from './arguments';
import { contextOf, findTarget } from './cli-context';
import { appSettingsCommand } from './commands/app-settings';
import { connectorsCommand } from './commands/connectors';
import { createUserCommand } from './commands/create-user';
import { entitiesInferCommand } from './commands/entities-infer';
import { pruneFilesCommand } from './commands/files-prune';
import { functionsInstallCommand } from './commands/functions-install';
import { logsCommand } from './commands/logs';
import { migrateCommand } from './commands/migrate';
import { secretsCommand } from './commands/secrets';
import { serviceTokenCommand } from './commands/service-token';
import { updateUserCommand } from './commands/update-user';
import { USAGE } from './usage';

/** CliIo is what the CLI reads and writes besides its arguments. */
export interface CliIo {
  /** repoRoot is the repository root, where the site config and the default project are. */
  repoRoot: string;
  env: NodeJS.ProcessEnv;
  /** cwd is where the operator typed the command (npm runs the CLI from the repository root). */
  cwd: string;
  print: (text: string) => void;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** runCli runs the command argv names and resolves with the exit code; a failure throws its message. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const { command, app } = parseCliArguments(argv);
  if (command.name === 'help') {
    io.print(USAGE);
    return 0;
  }
  if (command.name === 'entities-infer') {
    // Before the project is loaded: the app's entity files are what this command completes.
    await entitiesInferCommand({
      appDir: resolve(io.cwd, app ?? '.'),
      dryRun: command.dryRun,
      print: io.print,
    });
    return 0;
  }
  const target = await findTarget(app, io.env, io.repoRoot);
  if (command.name === 'migrate') {
    io.print(json(await migrateCommand(target)));
    return 0;
  }
  const context = await contextOf(target, io.print);
  switch (command.name) {
    case 'service-token':
      serviceTokenCommand(context);
      return 0;
    case 'create-user':
      io.print(json(await createUserCommand(context, command.user)));
      return 0;
    case 'update-user':
      io.print(json(await updateUserCommand(context, command.change)));
      return 0;
    case 'app-settings':
      io.print(json(await appSettingsCommand(context, command.settings)));
      return 0;
    case 'files-prune':
      io.print(json(await pruneFilesCommand(context, command)));
      return 0;
    case 'secrets':
      io.print(json(await secretsCommand(context, command)));
      return 0;
    case 'connectors':
      io.print(json(await connectorsCommand(context, command)));
      return 0;
    case 'functions-install': {
      const report = await functionsInstallCommand(context);
      io.print(json(report));
      return Object.keys(report.failed).length > 0 ? 1 : 0;
    }
    case 'logs':
      await logsCommand(context, command);
      return 0;
  }
}
