import { z } from 'zod';

// `base44/auth/config.jsonc`, in the Base44 CLI's format (its `auth-config` resource): which sign-in methods
// the app offers. Unknown keys are kept. `enableGithubLogin` is ours: the CLI has no key for GitHub yet.

/** SSO_PROVIDER_KINDS are the kinds of identity provider `ssoProviderName` may name. */
export const SSO_PROVIDER_KINDS = ['google', 'microsoft', 'okta', 'github', 'custom'] as const;

/** AuthConfigSchema is the file; without it, email and password stay on and no provider is enabled. */
export const AuthConfigSchema = z.looseObject({
  enableUsernamePassword: z.boolean({ error: 'must be true or false' }).default(true),
  enableGoogleLogin: z.boolean({ error: 'must be true or false' }).default(false),
  enableMicrosoftLogin: z.boolean({ error: 'must be true or false' }).default(false),
  enableFacebookLogin: z.boolean({ error: 'must be true or false' }).default(false),
  enableAppleLogin: z.boolean({ error: 'must be true or false' }).default(false),
  enableGithubLogin: z.boolean({ error: 'must be true or false' }).default(false),
  enableSSOLogin: z.boolean({ error: 'must be true or false' }).default(false),
  ssoProviderName: z
    .enum(SSO_PROVIDER_KINDS, { error: `must be one of ${SSO_PROVIDER_KINDS.join(', ')}` })
    .optional(),
  googleOAuthMode: z.string().max(50).optional(),
  googleOAuthClientId: z.string().min(1).max(500).optional(),
  useWorkspaceSSO: z.boolean({ error: 'must be true or false' }).optional(),
});

export type AuthConfig = z.infer<typeof AuthConfigSchema>;
