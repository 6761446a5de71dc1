// What a capability is to the composition root: a part built once from what every part shares, which may
// add routes, realtime room families, Core integrations and a close step. platform.ts lists the parts;
// app.ts installs the edge and then each part's contributions. docs/adding-a-capability.md walks it through.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ServerConfig } from '../../config/server-env';
import type { ServerSecrets } from '../../lib/secrets-file';
import type { SiteBundle } from '../../lib/site-bundle';
import type { Project } from '../../project/project-loader';
import type { Realtime } from '../../realtime/realtime-hub';
import type { RoomFamily } from '../../realtime/socket-server';
import type { CallerGuard } from '../../routes/caller-guard';
import type { CoreHandler } from '../../routes/core-handlers';
import type { AppsService } from '../../services/apps/apps-service';
import type { EntityEvents } from '../../services/entities/entity-events';
import type { IntegrationBudget } from '../../services/integrations/integration-budget';
import type { AppAccess } from '../../services/identity/app-access';
import type { Identity } from '../../services/identity/identity';
import type { RateLimiter } from '../../services/limits/rate-limiter';
import type { UsageCounter } from '../../services/limits/usage-counter';
import type { Mailer } from '../../services/mail/mailer';
import type { SharedMarketCache } from '../../services/market/market-service';
import type { Database } from '../../store/database';

/**
 * Shared is what every part is built from: the configuration and the one-of-each the platform holds. A
 * part takes what it needs from here, and other parts' services as named arguments (platform.ts).
 */
export interface Shared {
  config: ServerConfig;
  project: Project;
  db: Database;
  logger: Logger;
  /** realtime is socket.io's fan-out; its hub reaches sockets and other instances. */
  realtime: Realtime;
  /** limiter counts rate limits, in Redis (shared by every instance) with REDIS_URL. */
  limiter: RateLimiter;
  /** sharedCache is the limiter's Redis connection (REDIS_URL) for small shared answers; null without. */
  sharedCache: SharedMarketCache | null;
  /** usage counts daily shares (upload bytes, LLM tokens) where the limiter counts. */
  usage: UsageCounter;
  /** countPer makes a counter over another window (for example a minute of `$regex` query time). */
  countPer(windowMs: number): UsageCounter;
  /** secrets are the server's own: the token signing secret, the service token, the secrets key. */
  secrets: ServerSecrets;
  apps: AppsService;
  mailer: Mailer;
  /** identity is the access tokens (`identity.tokens`) and the cached users rows they resolve to. */
  identity: Identity;
  /** access is who may reach the app's data: the HTTP guard and socket handshakes both ask it. */
  access: AppAccess;
  /** events are committed entity writes (realtime delivery, automations, the User entity). */
  events: EntityEvents;
  /** bundle is what SITE_DIST holds (our site, or another app's build). */
  bundle: SiteBundle;
  isShuttingDown: () => boolean;
}

/** Edge is what the HTTP edge hands every part's routes: one guard, one integration budget, the origins. */
export interface Edge {
  guard: CallerGuard;
  appId: string;
  publicUrl: string | undefined;
  /** returnOrigins are the front ends served elsewhere (CORS_ORIGINS) that sign-in may return to. */
  returnOrigins: readonly string[];
  /** budget is the per-IP and per-user integration call budget (Core, custom, uploads). */
  budget: IntegrationBudget;
  /** coreHandlers are every part's `Core/<Name>` integrations, by name. */
  coreHandlers: Readonly<Record<string, CoreHandler>>;
}

/** Part is one capability's contribution to the server; every member is optional. */
export interface Part {
  /** name says which capability this is (logs, docs). */
  name: string;
  /** routes registers the part's routes and hooks on the app, once, after the edge is installed. */
  routes?(app: FastifyInstance, edge: Edge): void | Promise<void>;
  /** rooms are the realtime room families the part publishes to (sockets may join only these). */
  rooms?: readonly RoomFamily[];
  /** coreHandlers answer `integration-endpoints/Core/<Name>` calls for the names the part serves. */
  coreHandlers?: Readonly<Record<string, CoreHandler>>;
  /**
   * close runs when the server stops, after requests have drained and before the database closes; parts
   * close in the reverse of their build order (automations before the functions they call, and so on).
   */
  close?(): Promise<void>;
}
