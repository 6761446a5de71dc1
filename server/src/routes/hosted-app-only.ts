// One server hosts one app (issue 18, item 11). Several servers may share a PostgreSQL database, and so
// its apps table: without this, a request naming another app's id would reach that app's data with this
// server's service token. Every route that names an app (`:appId` in the path, `app_id` in an API query) is
// refused with the same 404 as an app that does not exist, before any hook or handler runs.
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../lib/errors';
import { unsafeStringReason } from '../lib/safe-input';

/** otherAppOf is the app id a request names that is not hostedAppId, or null. */
export function otherAppOf(hostedAppId: string, params: unknown, query: unknown): string | null {
  for (const [source, key] of [
    [params, 'appId'],
    [query, 'app_id'],
  ] as const) {
    if (typeof source !== 'object' || source === null) continue;
    const value: unknown = (source as Record<string, unknown>)[key];
    const named = Array.isArray(value) ? value : [value];
    for (const id of named) if (typeof id === 'string' && id !== hostedAppId) return id;
  }
  return null;
}

/** notHostedError is the 404 for an app this server does not host (worded as for an unknown app). */
export const notHostedError = (appId: string) =>
  new NotFoundError(`App "${appId.slice(0, 100)}" was not found`);

/** refuseOtherApps answers 404 to any request that names an app other than hostedAppId. */
export function refuseOtherApps(app: FastifyInstance, hostedAppId: string): void {
  app.addHook('onRequest', async (request) => {
    // Pages (a hosted SPA's routes) may carry any query of their own: only the API reads `app_id`.
    const query = request.url.startsWith('/api/') ? request.query : undefined;
    const other = otherAppOf(hostedAppId, request.params, query);
    // An id no store could hold (NUL, lone surrogates) is the edge's 400 to give (app.ts), not a 404.
    if (other !== null && unsafeStringReason(other) === null) throw notHostedError(other);
  });
}
