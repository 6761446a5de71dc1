import type { Base44Client } from '@base44/sdk';
import { z } from 'zod';
import { createConsoleClient, sdkCall } from './console-client';
import { ConsoleApiError } from './console-error';
import { createRecordsApi, type RecordsApi } from './records-api';

export { ConsoleApiError };

// Every call the console makes: the official SDK where an endpoint exists for it (the signed-in user, entity
// reads), the app's sign-in sessions, and the admin API. Answers are parsed here, so pages only ever see
// checked shapes.

const MeSchema = z.object({
  email: z.string(),
  role: z.string().optional(),
  full_name: z.string().nullish(),
});
export type ConsoleUser = z.infer<typeof MeSchema>;

/** VISIBILITIES are who may open the app: anyone, signed-in users of a public app, or a private app's users. */
export const VISIBILITIES = ['public_without_login', 'public_with_login', 'private_with_login'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

const WarningSchema = z.object({ message: z.string(), action: z.string() });
export const OverviewSchema = z.object({
  app: z.object({
    id: z.string(),
    name: z.string(),
    visibility: z.enum(VISIBILITIES),
    selfSignup: z.boolean(),
  }),
  counts: z.object({
    users: z.number(),
    entities: z.array(z.object({ name: z.string(), records: z.number() })),
  }),
  database: z.object({ engine: z.string(), detail: z.string() }),
  realtime: z.string(),
  fileStorage: z.string(),
  llm: z.object({ configured: z.boolean(), detail: z.string() }),
  mail: z.object({ mode: z.string(), detail: z.string() }),
  version: z.string(),
  uptimeSeconds: z.number(),
  warnings: z.array(WarningSchema),
  signInProviders: z.array(z.string()),
  environment: z.array(z.object({ variable: z.string(), value: z.string() })),
});
export type Overview = z.infer<typeof OverviewSchema>;

const SecretsSchema = z.object({
  secrets: z.array(z.object({ name: z.string(), set_at: z.string() })),
});
export type SecretListing = z.infer<typeof SecretsSchema>['secrets'][number];

const UsersPageSchema = z.object({
  users: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      full_name: z.string(),
      role: z.string(),
      disabled: z.boolean(),
      created_date: z.string(),
      custom: z.record(z.string(), z.unknown()).default({}),
    }),
  ),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type UsersPage = z.infer<typeof UsersPageSchema>;
export type ConsoleUserRow = UsersPage['users'][number];

const UserFieldSchema = z.object({
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  enum: z.array(z.unknown()).optional(),
  description: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  maxLength: z.number().optional(),
});
export type UserField = z.infer<typeof UserFieldSchema>;
const UserFieldsSchema = z.object({
  roles: z.array(z.string()),
  default_role: z.string(),
  fields: z.array(UserFieldSchema),
});
/** UserFields is what the Users page's forms offer: the app's roles and User.jsonc's custom fields. */
export type UserFields = z.infer<typeof UserFieldsSchema>;

/** UserChange is one change to a user: role, disabled and/or custom fields. */
export interface UserChange {
  role?: string;
  disabled?: boolean;
  data?: Record<string, unknown>;
}
/** UsersQuery is the Users table's state, sent as the admin users endpoint's query. */
export interface UsersQuery {
  page: number;
  q: string;
  sort: string;
  role: string;
  status: string;
}

export interface AccessSettings {
  visibility: Visibility;
  selfSignup: boolean;
}
const SettingsAnswerSchema = z.object({ public_settings: z.enum(VISIBILITIES), self_signup: z.boolean() });

/** ConsoleApi is what the console asks the server, for one app and one session's token. */
export interface ConsoleApi {
  /** signIn starts a sign-in session with a password and answers its token. */
  signIn(email: string, password: string): Promise<string>;
  /** tradeForSession starts a session from this api's token (a provider's) and answers the session's token. */
  tradeForSession(): Promise<string>;
  /** signOut ends this api's session on the server: its token is refused from then on, everywhere. */
  signOut(): Promise<void>;
  me(): Promise<ConsoleUser>;
  overview(): Promise<Overview>;
  secrets(): Promise<SecretListing[]>;
  /** setSecret sends a value the server never gives back. */
  setSecret(name: string, value: string): Promise<void>;
  deleteSecret(name: string): Promise<void>;
  /** updateSettings changes visibility and self-sign-up, live, and answers what is now stored. */
  updateSettings(settings: AccessSettings): Promise<AccessSettings>;
  users(query: UsersQuery): Promise<UsersPage>;
  userFields(): Promise<UserFields>;
  /** inviteUser creates (or re-approves) the user with role and mails them a link to set a password. */
  inviteUser(email: string, role: string): Promise<void>;
  changeUser(id: string, change: UserChange): Promise<void>;
  /** mailPasswordReset mails the user a link to choose a new password (no one else sets it). */
  mailPasswordReset(id: string): Promise<void>;
  /** sendTestMail mails the signed-in admin and answers the address. */
  sendTestMail(): Promise<string>;
  /** call sends one request under the app's API (path from `/`) and parses the answer with schema. */
  call<T>(path: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T>;
  /** stream opens a long response under the app's API (a server-sent-events stream) with this token. */
  stream(path: string, signal: AbortSignal): Promise<Response>;
  /** records are the Data page's calls: the entity endpoints, with this session's token. */
  records: RecordsApi;
}

async function messageOf(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => null);
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : `The server answered ${response.status}`;
}

const SessionSchema = z.object({ access_token: z.string().min(1) });

/**
 * createConsoleApi calls this origin's API for appId with token. Sign-in starts a sign-in session (the
 * SDK's login would mint a plain token, which no sign-out ends, and store it in localStorage, where the
 * site's pages read it).
 */
export function createConsoleApi(appId: string, token: string | null): ConsoleApi {
  const app = `/api/apps/${encodeURIComponent(appId)}`;
  // Made on the first SDK call: a signed-out api (sign-in) never needs one.
  let client: Base44Client | undefined;
  const sdk = () => (client ??= createConsoleClient(appId, token ?? ''));
  async function call<T>(path: string, schema: z.ZodType<T>, init: RequestInit = {}): Promise<T> {
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (init.body) headers.set('content-type', 'application/json');
    const response = await fetch(`${app}${path}`, { ...init, headers });
    if (!response.ok) throw new ConsoleApiError(await messageOf(response), response.status);
    return schema.parse(await response.json());
  }
  return {
    call,
    async stream(path, signal) {
      const headers = new Headers({ accept: 'text/event-stream' });
      if (token) headers.set('authorization', `Bearer ${token}`);
      const response = await fetch(`${app}${path}`, { headers, signal });
      if (!response.ok) throw new ConsoleApiError(await messageOf(response), response.status);
      return response;
    },
    async signIn(email, password) {
      const answer = await call('/auth/sessions', SessionSchema, {
        method: 'POST',
        body: JSON.stringify({ email, password }),
      });
      return answer.access_token;
    },
    tradeForSession: async () =>
      (await call('/auth/sessions', SessionSchema, { method: 'POST' })).access_token,
    async signOut() {
      await call('/auth/sessions/current', z.unknown(), { method: 'DELETE' });
    },
    me: async () => MeSchema.parse(await sdkCall(() => sdk().auth.me())),
    overview: () => call('/admin/overview', OverviewSchema),
    secrets: async () => (await call('/admin/secrets', SecretsSchema)).secrets,
    async setSecret(name, value) {
      await call(`/admin/secrets/${encodeURIComponent(name)}`, z.unknown(), {
        method: 'PUT',
        body: JSON.stringify({ value }),
      });
    },
    async deleteSecret(name) {
      await call(`/admin/secrets/${encodeURIComponent(name)}`, z.unknown(), { method: 'DELETE' });
    },
    async updateSettings({ visibility, selfSignup }) {
      const stored = await call('/admin/settings', SettingsAnswerSchema, {
        method: 'PUT',
        body: JSON.stringify({ visibility, self_signup: selfSignup }),
      });
      return { visibility: stored.public_settings, selfSignup: stored.self_signup };
    },
    users(query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== '') params.set(key, String(value));
      return call(`/admin/users?${params.toString()}`, UsersPageSchema);
    },
    userFields: () => call('/admin/users/fields', UserFieldsSchema),
    async inviteUser(email, role) {
      await call('/admin/users/invite', z.unknown(), {
        method: 'POST',
        body: JSON.stringify({ user_email: email, role }),
      });
    },
    async changeUser(id, change) {
      await call(`/admin/users/${encodeURIComponent(id)}`, z.unknown(), {
        method: 'PATCH',
        body: JSON.stringify(change),
      });
    },
    async mailPasswordReset(id) {
      await call(`/admin/users/${encodeURIComponent(id)}/password-reset`, z.unknown(), { method: 'POST' });
    },
    async sendTestMail() {
      return (await call('/admin/mail/test', z.object({ to: z.string() }), { method: 'POST' })).to;
    },
    records: createRecordsApi(appId, token, sdk),
  };
}
