// The site: the operator console at `/_/`, SITE_DIST's pages (our own prerendered site, or another Base44 app's build, hosted), the
// sign-in page, and what a stale or foreign build lacks (said once at start).
import type { SiteConfig } from '../../../../site/src/config/site-config-schema';
import { DEFAULT_FRAME_ANCESTORS } from '../../lib/content-security-policy';
import { loadSiteBundle, type SiteBundle } from '../../lib/site-bundle';
import { join } from 'node:path';
import { CONSOLE_DIR } from '../../../../site/src/page-contract/build-info';
import { registerConsoleRoutes } from '../../routes/console';
import { registerSiteRoutes } from '../../routes/site';
import type { ImageService } from '../../services/images/image-service';
import type { MarketService } from '../../services/market/market-service';
import type { SecretsService } from '../../services/secrets/secrets-service';
import { reportSiteBundle } from '../startup-report';
import type { Part, Shared } from './part';
import { signInChoicesFor } from './sign-in-choices';

/** buildSitePart reports the bundle's problems and serves it; `/login` stays ours when hosting an app. */
export async function buildSitePart(
  shared: Shared,
  images: { images: ImageService },
  secrets: { secrets: SecretsService },
  market: { market: MarketService | null },
  /** site is the site config the page was prerendered from, to tell a stale build (absent: not checked). */
  site: SiteConfig | undefined,
): Promise<Part> {
  const { config, bundle } = shared;
  reportSiteBundle(bundle, config, site, shared.logger);
  const ownSite: SiteBundle | null =
    bundle.kind === 'app' && config.OWN_SITE_DIST !== config.SITE_DIST
      ? await loadSiteBundle(config.OWN_SITE_DIST)
      : null;
  // The sign-in page offers a button per provider the app enables (the SSO one named by `sso_name`).
  const signInChoices = signInChoicesFor(shared.project.auth?.config, (name) =>
    secrets.secrets.get(config.APP_ID, name),
  );
  return {
    name: 'site',
    routes: async (app, { returnOrigins }) => {
      // The console is always our own build's, whatever SITE_DIST holds.
      await registerConsoleRoutes(app, {
        dir: join(config.OWN_SITE_DIST, CONSOLE_DIR),
        appId: config.APP_ID,
        signInChoices,
      });
      await registerSiteRoutes(app, {
        bundle,
        ownSite,
        returnOrigins,
        signInChoices,
        appName: shared.project.name,
        appId: config.APP_ID,
        frameAncestors: config.FRAME_ANCESTORS ?? DEFAULT_FRAME_ANCESTORS,
        apps: shared.apps,
        images: images.images,
        market: market.market,
      });
    },
  };
}
