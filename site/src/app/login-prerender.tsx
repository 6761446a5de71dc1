import { renderToString } from 'react-dom/server';
import type { AuthApi } from '../features/login/api/auth-api';
import { LoginPage } from '../features/login/login-page';

const unavailable = async (): Promise<never> => {
  throw new Error('the prerenderer makes no requests');
};
const buildTimeApi: AuthApi = {
  signIn: unavailable,
  register: unavailable,
  verifyCode: unavailable,
  resendCode: unavailable,
  requestPasswordReset: unavailable,
  setPassword: unavailable,
};

/** renderLoginPage prerenders the sign-in step of the login page (what `/login?from_url=…` first shows). */
export function renderLoginPage(): string {
  return renderToString(
    <LoginPage params={{ fromUrl: null, resetToken: null, inviteToken: null }} api={buildTimeApi} />,
  );
}
