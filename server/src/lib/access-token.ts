import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

/** AccessTokenClaims is what an access token says: whose it is and for which app. */
export interface AccessTokenClaims {
  userId: string;
  appId: string;
}

/** TokenSigner mints and verifies this server's HS256 access tokens. */
export interface TokenSigner {
  mint(claims: AccessTokenClaims): Promise<string>;
  /** verify returns the claims or null when the token is forged, expired, malformed or for another app. */
  verify(token: string, expectedAppId: string): Promise<AccessTokenClaims | null>;
  /** mintIdToken signs an OIDC-style id token (`sub`, `email`, `aud` = app id) for SSO. */
  mintIdToken(claims: AccessTokenClaims & { email: string }): Promise<string>;
}

const ALGORITHM = 'HS256';

/**
 * createTokenSigner returns a signer keyed by secret; expiresIn is a jose duration such as `30d`.
 * Only HS256 is accepted on verify, so `alg: none` and algorithm-swap tokens are rejected.
 */
export function createTokenSigner(secret: string, expiresIn: string): TokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    async mint({ userId, appId }) {
      return new SignJWT({ app_id: appId })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(key);
    },
    async verify(token, expectedAppId) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM], requiredClaims: ['exp'] });
        if (typeof payload.sub !== 'string' || payload.sub === '') return null;
        if (payload.app_id !== expectedAppId) return null;
        return { userId: payload.sub, appId: expectedAppId };
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
