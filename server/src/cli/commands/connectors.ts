// `npm run cli -- connectors list | connect <type> | disconnect <type>`: the app's connections, through the
// running server's admin API (connecting needs the server: the provider sends the browser back to it).
// `connect` prints the address to open alone on its line and waits, 10 minutes at most, until the server
// has stored the connection.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { adminPath, callAdminApi, type AdminServer } from '../admin-client';
import type { ConnectorsAction } from '../arguments';
import type { CliContext } from '../cli-context';

/** CONNECT_WAIT_MS is how long `connect` waits for the browser to come back (the state's lifetime). */
const CONNECT_WAIT_MS = 10 * 60 * 1000;
/** POLL_EVERY_MS is how often `connect` asks whether the connection arrived. */
const POLL_EVERY_MS = 1000;

const ConnectorSchema = z.object({
  type: z.string(),
  connector_id: z.string().nullable(),
  scopes: z.array(z.string()),
  configured: z.boolean(),
  missing_secrets: z.array(z.string()),
  status: z.string(),
  connected_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  app_user_connections: z.number(),
});
const ListAnswerSchema = z.object({ connectors: z.array(ConnectorSchema) });
const ConnectAnswerSchema = z.object({ redirect_url: z.string() });
const DisconnectAnswerSchema = z.object({ success: z.literal(true), revoked: z.boolean() });

/** ConnectorsCommandOptions are the waits, shorter in tests. */
export interface ConnectorsCommandOptions {
  waitMs?: number;
  pollMs?: number;
}

function requireServer(context: CliContext): AdminServer {
  if (context.server) return context.server;
  throw new Error(
    'No server is running on this DATA_DIR: start it (npm start) and run this again. Connecting needs the server, since the provider sends the browser back to it.',
  );
}

const list = (server: AdminServer, appId: string) =>
  callAdminApi(server, { method: 'GET', path: adminPath(appId, 'connectors') }, ListAnswerSchema);

/** connectorsCommand runs one `connectors` action and returns what the CLI prints as JSON (list, disconnect). */
export async function connectorsCommand(
  context: CliContext,
  command: ConnectorsAction,
  options: ConnectorsCommandOptions = {},
): Promise<unknown> {
  const server = requireServer(context);
  const appId = context.config.APP_ID;
  if (command.action === 'list') return list(server, appId);
  if (command.action === 'disconnect') {
    const path = adminPath(appId, 'connectors', command.connector);
    return callAdminApi(server, { method: 'DELETE', path }, DisconnectAnswerSchema);
  }
  const started = Date.now();
  const path = `${adminPath(appId, 'connectors', command.connector)}/connect`;
  const { redirect_url: address } = await callAdminApi(server, { method: 'POST', path }, ConnectAnswerSchema);
  context.print(`Open this address in a browser and allow ${command.connector}:`);
  context.print(address);
  const deadline = started + (options.waitMs ?? CONNECT_WAIT_MS);
  while (Date.now() < deadline) {
    await sleep(options.pollMs ?? POLL_EVERY_MS);
    const current = (await list(server, appId)).connectors.find((entry) => entry.type === command.connector);
    const connectedAt = current?.connected_at ? Date.parse(current.connected_at) : 0;
    if (current?.status === 'connected' && connectedAt >= started - 1000) {
      return { connected: command.connector, expires_at: current.expires_at };
    }
  }
  throw new Error(
    `${command.connector} was not connected within ${Math.round((deadline - started) / 60000)} minutes: run the command again`,
  );
}
