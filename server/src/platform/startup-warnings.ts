// The warnings start-up prints, each with what to do: one list, which the start-up log prints and the
// console's Overview shows (GET /admin/overview), so the two never disagree.
import { siteConfigWarnings, type SiteConfig } from '../../../site/src/config/site-config-schema';
import type { ServerConfig } from '../config/server-env';
import type { AppsService } from '../services/apps/apps-service';
import type { StartupWarning } from '../services/admin/app-overview';

/** WarningFacts is what the warnings are decided from. */
export interface WarningFacts {
  config: ServerConfig;
  apps: Pick<AppsService, 'findAccessSettings'>;
  /** localUrl is the address this process answers on locally. */
  localUrl: string;
  /** secretsKeySource is where the app secrets' key comes from ('SECRETS_KEY' or generated). */
  secretsKeySource: string | undefined;
  site?: SiteConfig | undefined;
}

/** findStartupWarnings lists what weakens this start, each with what to do. */
export async function findStartupWarnings(facts: WarningFacts): Promise<StartupWarning[]> {
  const { config } = facts;
  const warnings: StartupWarning[] = [];
  if (!config.PUBLIC_URL) {
    warnings.push({
      message: `PUBLIC_URL is not set: password reset and invite mails are sent only for requests addressed to this server's own address (${facts.localUrl}); others get 503.`,
      action: 'Set PUBLIC_URL to the address users open.',
    });
  }
  const access = await facts.apps.findAccessSettings(config.APP_ID);
  if (access.visibility === 'private_with_login' && access.selfSignup) {
    warnings.push({
      message:
        'The app is private_with_login with self-sign-up on: anyone who verifies an email address is approved and reads its data.',
      action: 'Set APP_SELF_SIGNUP=false to approve users yourself (invites, the CLI).',
    });
  }
  if (
    config.DATABASE_URL &&
    facts.secretsKeySource !== undefined &&
    facts.secretsKeySource !== 'SECRETS_KEY'
  ) {
    warnings.push({
      message:
        "SECRETS_KEY is not set: app secrets are encrypted with a key generated into this instance's DATA_DIR. Other instances on this database cannot decrypt them (and refuse to start once one is stored).",
      action: 'Give every instance the same SECRETS_KEY.',
    });
  }
  // The site config's warnings read "what: what to do".
  for (const warning of facts.site ? siteConfigWarnings(facts.site) : []) {
    const [message = warning, ...rest] = warning.split(': ');
    warnings.push({ message, action: rest.join(': ') || 'See docs/environment.md.' });
  }
  return warnings;
}

/** warningLine is one warning as the start-up log prints it. */
export const warningLine = (warning: StartupWarning) => `${warning.message} ${warning.action}`;
