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
  /**
   * sessionId names the sign-in session the token belongs to (claim `sid`), when it was minted for one: such
   * a token counts only while its session does, so signing out ends it before its expiry.
   */
  sessionId?: string | undefined;
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
  /** mint signs claims; expiresIn (a jose duration) replaces the signer's own lifetime for this token. */
  mint(claims: AccessTokenClaims, expiresIn?: string): Promise<string>;
  /** verify returns the claims or null when the token is forged, expired, malformed or for another app. */
  verify(token: string, expectedAppId: string): Promise<AccessTokenClaims | null>;
  /** mintIdToken signs an OIDC-style id token (`sub`, `email`, `aud` = app id) for SSO. */
  mintIdToken(claims: IdTokenClaims): Promise<string>;
  /**
   * mintService signs a service-role token of appId that expires in seconds: a function call's own, named
   * by callId (claim `jti`) so that it can end with its call.
   */
  mintService(appId: string, seconds: number, callId: string): Promise<string>;
  /** verifyService returns the call id of an unexpired service-role token of appId minted here, else null. */
  verifyService(token: string, appId: string): Promise<string | null>;
}

/** SERVICE_SUBJECT is the subject of minted service-role tokens; verify never takes one for a user. */
const SERVICE_SUBJECT = 'service-role';

const ALGORITHM = 'HS256';

/** isSessionId says whether a `sid` claim is one this server mints (it goes into SQL as a parameter). */
const isSessionId = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(value);

/**
 * createTokenSigner returns a signer keyed by secret; expiresIn is a jose duration such as `30d`.
 * Only HS256 is accepted on verify, so `alg: none` and algorithm-swap tokens are rejected; a token must
 * carry `exp` and an `iat` no later than now plus CLOCK_SKEW_SECONDS.
 */
export function createTokenSigner(secret: string, expiresIn: string): TokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    async mint({ userId, appId, tokenVersion, sessionId }, lifetime = expiresIn) {
      return new SignJWT({ app_id: appId, tv: tokenVersion, ...(sessionId ? { sid: sessionId } : {}) })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(lifetime)
        .sign(key);
    },
    async verify(token, expectedAppId) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          requiredClaims: ['exp', 'iat'],
        });
        if (typeof payload.sub !== 'string' || payload.sub === '') return null;
        if (payload.app_id !== expectedAppId || payload.role === 'service') return null;
        // A token "issued" in the future would outlive its expiry window as seen by its issuer.
        if (typeof payload.iat !== 'number' || payload.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS)
          return null;
        const version = payload.tv ?? 0;
        if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) return null;
        const sessionId = payload.sid;
        if (sessionId !== undefined && !isSessionId(sessionId)) return null;
        return { userId: payload.sub, appId: expectedAppId, tokenVersion: version, sessionId };
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
    async mintService(appId, seconds, callId) {
      return new SignJWT({ app_id: appId, role: 'service' })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(SERVICE_SUBJECT)
        .setJti(callId)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
        .sign(key);
    },
    async verifyService(token, appId) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM], requiredClaims: ['exp'] });
        const ours =
          payload.role === 'service' && payload.sub === SERVICE_SUBJECT && payload.app_id === appId;
        // A token without a call id could not be ended with its call: none is minted so any more.
        return ours && typeof payload.jti === 'string' && payload.jti !== '' ? payload.jti : null;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}
