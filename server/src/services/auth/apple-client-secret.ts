// Sign in with Apple over OpenID Connect. Apple has no fixed client secret: each token request carries a
// short-lived JWT the server signs (ES256) with the app's key from Apple's developer account. Asking for the
// name and email makes Apple answer with a form POST (`response_mode=form_post`), see the POST callback in
// routes/provider-sign-in.ts; the name comes only then, in the form's `user` field, on the first sign-in.
import { importPKCS8, SignJWT } from 'jose';
import * as client from 'openid-client';
import { z } from 'zod';
import { NotConfiguredError } from '../../lib/errors';
import {
  isLoopbackHttp,
  PROVIDER_TIMEOUT_SECONDS,
  requireSecret,
  secretUrl,
  type Discoveries,
  type OidcOptions,
  type ReadSecret,
} from './oidc-client';

/** APPLE_DISCOVERY_URL is Apple's, replaced by the app secret `apple_oauth_discovery_url` (tests, proxies). */
export const APPLE_DISCOVERY_URL = 'https://appleid.apple.com/.well-known/openid-configuration';
/** APPLE_AUDIENCE is the `aud` Apple expects in the client secret. */
export const APPLE_AUDIENCE = 'https://appleid.apple.com';
/** APPLE_SECRET_SECONDS is the client secret's lifetime: one is signed per use (Apple allows 6 months). */
export const APPLE_SECRET_SECONDS = 300;
/** APPLE_SCOPE asks for the ID token, the name and the email (Apple's discovery lists all three). */
export const APPLE_SCOPE = 'openid name email';

/** AppleKey is who signs the client secret: the team, the key and the Services ID (the client id). */
export interface AppleKey {
  teamId: string;
  keyId: string;
  clientId: string;
  /** privateKey is the `.p8` file's PEM text (PKCS#8, EC P-256). */
  privateKey: string;
}

/** appleClientSecret signs the client secret JWT Apple's token endpoint takes, valid APPLE_SECRET_SECONDS. */
export async function appleClientSecret(key: AppleKey, now: number = Date.now()): Promise<string> {
  let signingKey: Awaited<ReturnType<typeof importPKCS8>>;
  try {
    // Secrets set from a shell often carry literal "\n" for the PEM's line breaks.
    signingKey = await importPKCS8(key.privateKey.replaceAll('\\n', '\n').trim(), 'ES256');
  } catch {
    throw new NotConfiguredError(
      'The app secret apple_oauth_private_key must be the PEM text of the .p8 key Apple gives (PKCS#8, EC P-256)',
    );
  }
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: key.keyId })
    .setIssuer(key.teamId)
    .setSubject(key.clientId)
    .setAudience(APPLE_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + APPLE_SECRET_SECONDS)
    .sign(signingKey);
}

/** AppleUserSchema is the form's `user` field Apple sends on the first sign-in (only the name is read). */
const AppleUserSchema = z.object({
  name: z
    .object({ firstName: z.string().max(100).optional(), lastName: z.string().max(100).optional() })
    .optional(),
});

/** appleCallbackName reads the person's name from the callback's `user` field, when Apple sent one. */
export function appleCallbackName(callbackUrl: URL): string | undefined {
  const user = callbackUrl.searchParams.get('user');
  if (!user) return undefined;
  try {
    const name = AppleUserSchema.parse(JSON.parse(user)).name;
    const full = [name?.firstName, name?.lastName].filter(Boolean).join(' ').trim();
    return full || undefined;
  } catch {
    // A name is a nicety: an unreadable one is left out.
    return undefined;
  }
}

/** APPLE_OPTIONS are Apple's departures from plain OpenID Connect (its `email_verified` may be "true"). */
export const APPLE_OPTIONS: OidcOptions = {
  authorizationParams: { response_mode: 'form_post' },
  callbackName: appleCallbackName,
};

/** appleConfiguration discovers Apple and authenticates with a freshly signed client secret. */
export async function appleConfiguration(
  secret: ReadSecret,
  discoveries: Discoveries,
): Promise<client.Configuration> {
  const need = requireSecret(secret);
  const key: AppleKey = {
    clientId: await need('apple_oauth_client_id'),
    teamId: await need('apple_oauth_team_id'),
    keyId: await need('apple_oauth_key_id'),
    privateKey: await need('apple_oauth_private_key'),
  };
  const clientSecret = await appleClientSecret(key);
  const url = secretUrl(
    'apple_oauth_discovery_url',
    (await secret('apple_oauth_discovery_url')) ?? APPLE_DISCOVERY_URL,
  );
  // The document is cached under the client id alone (the secret changes on each use).
  const discovered = await discoveries.discover(url, key.clientId, '');
  const config = new client.Configuration(
    discovered.serverMetadata(),
    key.clientId,
    undefined,
    client.ClientSecretPost(clientSecret),
  );
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (isLoopbackHttp(url)) client.allowInsecureRequests(config);
  return config;
}
