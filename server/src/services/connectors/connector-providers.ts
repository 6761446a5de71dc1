// The OAuth services the Base44 CLI knows connectors for (plus Outlook and Airtable), with the defaults a
// self-hoster would otherwise look up: endpoints, the authorize parameters that get a refresh token, how the
// token endpoint wants the client to authenticate, and the API hosts `callApi` may reach. Every value can be
// overridden by an app secret (connector-settings.ts); a type not listed here is a generic OAuth 2 connector.

/** SecretFamily is the prefix of app secrets a group of connectors shares (one Google client serves all). */
export type SecretFamily = 'google' | 'microsoft' | 'slack';

/** BuiltInProvider is one service's defaults. */
export interface BuiltInProvider {
  family?: SecretFamily;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl?: string;
  /** apiHosts are the hosts `callApi` may call, the first being the default. */
  apiHosts: string[];
  authorizeParams?: Record<string, string>;
  /** tokenAuth is how the client authenticates at the token endpoint: HTTP Basic, or the form body. */
  tokenAuth: 'basic' | 'body';
}

const GOOGLE = {
  family: 'google',
  authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  revokeUrl: 'https://oauth2.googleapis.com/revoke',
  // Without these Google gives no refresh token (or only at the first consent).
  authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  tokenAuth: 'body',
} as const satisfies Omit<BuiltInProvider, 'apiHosts'>;

const MICROSOFT = {
  family: 'microsoft',
  authorizeUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
  tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
  apiHosts: ['graph.microsoft.com'],
  tokenAuth: 'body',
} as const satisfies BuiltInProvider;

const SLACK = {
  family: 'slack',
  authorizeUrl: 'https://slack.com/oauth/v2/authorize',
  tokenUrl: 'https://slack.com/api/oauth.v2.access',
  revokeUrl: 'https://slack.com/api/auth.revoke',
  apiHosts: ['slack.com'],
  tokenAuth: 'body',
} as const satisfies BuiltInProvider;

const google = (...apiHosts: string[]): BuiltInProvider => ({ ...GOOGLE, apiHosts });

/** BUILT_IN_PROVIDERS are the known types' defaults, by type. */
export const BUILT_IN_PROVIDERS: Readonly<Record<string, BuiltInProvider>> = {
  googlecalendar: google('www.googleapis.com'),
  googledrive: google('www.googleapis.com'),
  gmail: google('gmail.googleapis.com', 'www.googleapis.com'),
  sheets: google('sheets.googleapis.com', 'www.googleapis.com'),
  docs: google('docs.googleapis.com', 'www.googleapis.com'),
  slides: google('slides.googleapis.com', 'www.googleapis.com'),
  bigquery: google('bigquery.googleapis.com', 'www.googleapis.com'),
  outlook: MICROSOFT,
  one_drive: MICROSOFT,
  share_point: MICROSOFT,
  microsoft_teams: MICROSOFT,
  slack: SLACK,
  slackbot: SLACK,
  notion: {
    authorizeUrl: 'https://api.notion.com/v1/oauth/authorize',
    tokenUrl: 'https://api.notion.com/v1/oauth/token',
    apiHosts: ['api.notion.com'],
    authorizeParams: { owner: 'user' },
    tokenAuth: 'basic',
  },
  salesforce: {
    authorizeUrl: 'https://login.salesforce.com/services/oauth2/authorize',
    tokenUrl: 'https://login.salesforce.com/services/oauth2/token',
    revokeUrl: 'https://login.salesforce.com/services/oauth2/revoke',
    // Salesforce answers each connection's API host as `instance_url` (connection_config).
    apiHosts: ['login.salesforce.com'],
    tokenAuth: 'body',
  },
  hubspot: {
    authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
    tokenUrl: 'https://api.hubapi.com/oauth/v1/token',
    apiHosts: ['api.hubapi.com'],
    tokenAuth: 'body',
  },
  linkedin: {
    authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
    apiHosts: ['api.linkedin.com'],
    tokenAuth: 'body',
  },
  tiktok: {
    authorizeUrl: 'https://www.tiktok.com/v2/auth/authorize/',
    tokenUrl: 'https://open.tiktokapis.com/v2/oauth/token/',
    revokeUrl: 'https://open.tiktokapis.com/v2/oauth/revoke/',
    apiHosts: ['open.tiktokapis.com'],
    tokenAuth: 'body',
  },
  airtable: {
    authorizeUrl: 'https://airtable.com/oauth2/v1/authorize',
    tokenUrl: 'https://airtable.com/oauth2/v1/token',
    apiHosts: ['api.airtable.com'],
    tokenAuth: 'basic',
  },
};

/** builtInProviderOf is type's defaults: listed, or Google's for any other `google*` type, else none. */
export function builtInProviderOf(type: string): BuiltInProvider | undefined {
  if (Object.hasOwn(BUILT_IN_PROVIDERS, type)) return BUILT_IN_PROVIDERS[type];
  return type.startsWith('google') ? google('www.googleapis.com') : undefined;
}
