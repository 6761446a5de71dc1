import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

/** AccessTokenClaims is what an access token says: whose it is, for which app, and of which token version. */
export interface AccessTokenClaims {
  userId: string;
  appId: string;
  /**
   * tokenVersion is the user's token version when the token was minted (claim `tv`); a password reset or
   * change, a disable or a role change bumps the stored version, which voids every older token.
   * Tokens minted before versions existed carry none and read as 0.
   */
  tokenVersion: number;
}

/** IdTokenClaims is what an SSO id token says. */
export interface IdTokenClaims {
  userId: string;
  appId: string;
  email: string;
}

/** CLOCK_SKEW_SECONDS is how far in the future a token's `iat` may lie (another instance's clock). */
export const CLOCK_SKEW_SECONDS = 60;

/** TokenSigner mints and verifies this server's HS256 access tokens. */
export interface TokenSigner {
  mint(claims: AccessTokenClaims): Promise<string>;
  /** verify returns the claims or null when the token is forged, expired, malformed or for another app. */
  verify(token: string, expectedAppId: string): Promise<AccessTokenClaims | null>;
  /** mintIdToken signs an OIDC-style id token (`sub`, `email`, `aud` = app id) for SSO. */
  mintIdToken(claims: IdTokenClaims): Promise<string>;
}

const ALGORITHM = 'HS256';

/**
 * createTokenSigner returns a signer keyed by secret; expiresIn is a jose duration such as `30d`.
 * Only HS256 is accepted on verify, so `alg: none` and algorithm-swap tokens are rejected; a token must
 * carry `exp` and an `iat` no later than now plus CLOCK_SKEW_SECONDS.
 */
export function createTokenSigner(secret: string, expiresIn: string): TokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    async mint({ userId, appId, tokenVersion }) {
      return new SignJWT({ app_id: appId, tv: tokenVersion })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(key);
    },
    async verify(token, expectedAppId) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          requiredClaims: ['exp', 'iat'],
        });
        if (typeof payload.sub !== 'string' || payload.sub === '') return null;
        if (payload.app_id !== expectedAppId) return null;
        // A token "issued" in the future would outlive its expiry window as seen by its issuer.
        if (typeof payload.iat !== 'number' || payload.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS)
          return null;
        const version = payload.tv ?? 0;
        if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) return null;
        return { userId: payload.sub, appId: expectedAppId, tokenVersion: version };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
    async mintIdToken({ userId, appId, email }) {
      return new SignJWT({ email, app_id: appId })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setAudience(appId)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
    },
  };
}
