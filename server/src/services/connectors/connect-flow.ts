// Connecting: the authorization-code flow with PKCE whose state the server keeps (single use, 10 minutes),
// a user's connect bound by a cookie to the browser that started it (a link finished in another browser is
// refused: no account swap), and the callback that stores the connection.
import { randomPKCECodeVerifier } from 'openid-client';
import { z } from 'zod';
import { openSecret, sealSecret } from '../../lib/secret-box';
import { randomSecret, sha256Hex } from '../../lib/secure-random';
import type { ConnectorDef } from '../../project/connector-loader';
import type { ConnectorsStore } from '../../store/connectors-store';
import type { AuditActor, AuditLog } from '../audit/audit-log';
import { ConnectorError } from './connector-errors';
import { authorizeUrl, exchangeCode } from './connector-oauth';
import type { ConnectorSettings } from './connector-settings';
import type { ConnectionTokens } from './connection-tokens';

/** APP_OWNER is the owner id of the app-level connection. */
export const APP_OWNER = '';

/**
 * StartedConnect is where to send the browser, and for a user's connect the cookie that binds it to the
 * browser that asked (a connect link finished in someone else's browser is refused: no account swap).
 */
export interface StartedConnect {
  redirect_url: string;
  binding?: { name: string; value: string };
}

/** bindingCookieName is the cookie of one started connect (several may run in one browser). */
export const bindingCookieName = (stateId: string) => `base44_connect_${stateId.slice(0, 16)}`;

/** FinishedConnect says whose connection the callback made (or why not), and where a user goes back to. */
export type FinishedConnect =
  | { kind: 'app'; connector: string; error?: string }
  | { kind: 'user'; connector: string; fromUrl: string; error?: string };

const StateSchema = z.object({
  connector: z.string(),
  ownerId: z.string(),
  codeVerifier: z.string(),
  redirectUri: z.string(),
  fromUrl: z.string().optional(),
  /** binding is the hash of the cookie a user's connect set on the browser that started it. */
  binding: z.string().optional(),
  actor: z.custom<AuditActor>((value) => typeof value === 'object' && value !== null).optional(),
});

/** ConnectFlowDeps are what connecting needs from the service around it. */
export interface ConnectFlowDeps {
  appId: string;
  key: Buffer;
  store: ConnectorsStore;
  stateTtlMs: number;
  audit: Pick<AuditLog, 'record'>;
  tokens: ConnectionTokens;
  definitionOf(ref: string): ConnectorDef;
  settingsOf(ref: string): Promise<ConnectorSettings>;
}

/** ConnectFlow starts a connect and finishes it at the callback. */
export interface ConnectFlow {
  start(
    ref: string,
    ownerId: string,
    input: { redirectUri: string; fromUrl?: string | undefined; actor?: AuditActor | undefined },
  ): Promise<StartedConnect>;
  finish(query: URLSearchParams, cookie: (name: string) => string | undefined): Promise<FinishedConnect>;
}

/** createConnectFlow returns the connect flow of the app's connectors. */
export function createConnectFlow(deps: ConnectFlowDeps): ConnectFlow {
  const { definitionOf, settingsOf, tokens } = deps;
  return {
    async start(ref, ownerId, input) {
      const def = definitionOf(ref);
      const settings = await settingsOf(def.type);
      const state = randomSecret();
      const id = sha256Hex(state);
      const codeVerifier = randomPKCECodeVerifier();
      const binding = ownerId === APP_OWNER ? undefined : randomSecret();
      const kept = {
        connector: def.type,
        ownerId,
        codeVerifier,
        redirectUri: input.redirectUri,
        ...(input.actor ? { actor: input.actor } : {}),
        ...(binding ? { binding: sha256Hex(binding) } : {}),
      };
      const sealed = sealSecret(
        deps.key,
        ['connector-state', deps.appId, id],
        JSON.stringify(input.fromUrl === undefined ? kept : { ...kept, fromUrl: input.fromUrl }),
      );
      await deps.store.putState(id, deps.appId, ownerId, sealed, new Date(Date.now() + deps.stateTtlMs));
      const url = await authorizeUrl(settings, {
        redirectUri: input.redirectUri,
        state,
        codeVerifier,
        scopes: def.scopes,
      });
      return {
        redirect_url: url,
        ...(binding ? { binding: { name: bindingCookieName(id), value: binding } } : {}),
      };
    },

    async finish(query, cookie) {
      const state = query.get('state') ?? '';
      const id = sha256Hex(state);
      const taken =
        state.length > 0 && state.length <= 200 ? await deps.store.takeState(deps.appId, id) : null;
      if (!taken) {
        throw new ConnectorError(
          'connector_state_invalid',
          'This connect answer is unknown, used or expired: start connecting again',
        );
      }
      const started = StateSchema.parse(
        JSON.parse(openSecret(deps.key, ['connector-state', deps.appId, id], taken.sealed)),
      );
      if (started.binding) {
        const presented = cookie(bindingCookieName(id));
        if (!presented || sha256Hex(presented) !== started.binding) {
          throw new ConnectorError(
            'connector_state_invalid',
            'This connect was started in another browser: open the app in this browser and connect from there',
          );
        }
      }
      const whose = (error?: string): FinishedConnect =>
        started.ownerId === APP_OWNER
          ? { kind: 'app', connector: started.connector, ...(error ? { error } : {}) }
          : {
              kind: 'user',
              connector: started.connector,
              fromUrl: started.fromUrl ?? '/',
              ...(error ? { error } : {}),
            };
      const refused = query.get('error');
      if (refused) return whose(refused.slice(0, 100));
      const settings = await settingsOf(started.connector);
      const callbackUrl = new URL(started.redirectUri);
      callbackUrl.search = query.toString();
      const fresh = await exchangeCode(settings, callbackUrl, {
        codeVerifier: started.codeVerifier,
        state,
      });
      await deps.store.put({
        appId: deps.appId,
        connector: started.connector,
        ownerId: started.ownerId,
        sealed: tokens.seal(deps.appId, started.connector, started.ownerId, fresh),
        expiresAt: fresh.expiresAt === undefined ? null : new Date(fresh.expiresAt * 1000),
      });
      if (started.ownerId === APP_OWNER && started.actor) {
        await deps.audit.record(deps.appId, started.actor, {
          action: 'connector.connect',
          target: `connector:${started.connector}`,
          after: { status: 'connected', scopes: fresh.scope ?? null },
        });
      }
      return whose();
    },
  };
}
