import type { Base44Client } from '@base44/sdk';

/** AuthApi is every call the sign-in page makes; the page gets one so tests can give it a double. */
export interface AuthApi {
  /** signIn checks the password and resolves with the access token. */
  signIn(email: string, password: string): Promise<string>;
  register(email: string, password: string): Promise<void>;
  /** verifyCode confirms the mailed code; it resolves with the token when the server returns one. */
  verifyCode(email: string, code: string): Promise<string | null>;
  resendCode(email: string): Promise<void>;
  requestPasswordReset(email: string): Promise<string | null>;
  /** setPassword spends a mailed reset or invite token; it resolves with the server's confirmation. */
  setPassword(token: string, newPassword: string): Promise<string | null>;
}

const messageOf = (answer: unknown): string | null => {
  const message = (answer as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : null;
};

/**
 * createAuthApi talks to this origin's platform with the official SDK, loaded on the first call so the
 * prerendered form paints and hydrates without it.
 */
export function createAuthApi(appId: string): AuthApi {
  let client: Promise<Base44Client> | undefined;
  const auth = async () => {
    client ??= import('@base44/sdk').then(({ createClient }) =>
      createClient({ appId, serverUrl: '', requiresAuth: false }),
    );
    return (await client).auth;
  };

  return {
    async signIn(email, password) {
      const { access_token } = await (await auth()).loginViaEmailPassword(email, password);
      if (!access_token) throw new Error('The server signed you in without a token. Please try again.');
      return access_token;
    },
    async register(email, password) {
      await (await auth()).register({ email, password });
    },
    async verifyCode(email, code) {
      const answer: unknown = await (await auth()).verifyOtp({ email, otpCode: code });
      const token = (answer as { access_token?: unknown } | null)?.access_token;
      return typeof token === 'string' && token ? token : null;
    },
    async resendCode(email) {
      await (await auth()).resendOtp(email);
    },
    async requestPasswordReset(email) {
      return messageOf(await (await auth()).resetPasswordRequest(email));
    },
    async setPassword(token, newPassword) {
      return messageOf(await (await auth()).resetPassword({ resetToken: token, newPassword }));
    },
  };
}
