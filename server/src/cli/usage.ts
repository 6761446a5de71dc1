// The operator CLI's help text, and each command's usage line for the errors that name one.

/** USAGE is what `npm run cli -- help` (or `--help`, or no command) prints. */
export const USAGE = `Usage: npm run cli -- <command> [options]
  create-user --email <e> --password <p> [--role <role>] [--name <full name>]
  set-role --email <e> --role <role>
    (roles: admin, and those the project's User.jsonc declares, else user; the default is the declared one)
  disable-user --email <e>
  enable-user --email <e>
  app-settings [--visibility public_without_login|public_with_login|private_with_login] [--self-signup on|off]
  service-token
  migrate                 create or upgrade the database (DATA_DIR's PGlite, or DATABASE_URL) and exit
  files prune [--dry-run] [--min-age-hours <h>]   remove uploaded files no record references (default age 24 h)
  secrets set <NAME>      the value is read from stdin when piped, else typed at a hidden prompt
  secrets list            names only (values are never shown)
  secrets delete <NAME>
  connectors list         each declared connector: configured or not (and the secrets it lacks), connected or not
  connectors connect <type>
                          with the server running: prints the address to open, waits until it is connected
  connectors disconnect <type>
  functions install       fetch every function's npm: packages into the functions' Deno cache (a deploy step)
  logs [--function <name>] [--limit <n>] [--follow]
                          backend function calls (status, duration, output), oldest first; --follow polls
                          for new ones until Ctrl-C
  entities infer [--app <path>] [--dry-run]
                          read the app's src/ and base44/functions/ code and write base44/entities/<Name>.jsonc
                          for each entity it uses that has no schema (never overwrites one); the fields are
                          guessed and the rules admit signed-in users only: check and edit them
  --app <path>            a hosted app's repository (its base44/ folder), as npm start -- --app takes
                          (entities infer: the current directory by default)
Reads DATA_DIR, APP_ID, PROJECT_DIR, SERVICE_TOKEN, JWT_SECRET and SECRETS_KEY like the server; with a server
running on DATA_DIR, commands act on the app that server hosts.`;

export const CONNECTORS_USAGE =
  'Usage: npm run cli -- connectors list | connectors connect <type> | connectors disconnect <type>';
export const ENTITIES_USAGE = 'Usage: npm run cli -- entities infer [--app <path>] [--dry-run]';
export const FILES_USAGE = 'Usage: npm run cli -- files prune [--dry-run] [--min-age-hours <h>]';
export const FUNCTIONS_USAGE = 'Usage: npm run cli -- functions install';
export const LOGS_USAGE = 'Usage: npm run cli -- logs [--function <name>] [--limit <n>] [--follow]';
export const SECRETS_USAGE =
  'Usage: npm run cli -- secrets set <NAME> | secrets list | secrets delete <NAME>';
