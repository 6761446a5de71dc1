import { useCallback, useEffect, useMemo, useState } from 'react';
import { useHydratedMarker } from '../../lib/use-hydrated-marker';
import type { AuthApi } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { ForgotPasswordForm } from './components/forgot-password-form';
import { SetPasswordForm } from './components/set-password-form';
import { SignInForm } from './components/sign-in-form';
import { SignUpForm } from './components/sign-up-form';
import { VerifyCodeForm } from './components/verify-code-form';
import { withoutMailedTokens, type LoginParams } from './lib/login-params';
import { initialView, type LoginView, type StepProps } from './lib/login-view';
import { LoginCopyContext, loginCopy } from './lib/login-copy';
import { providerLinks, ProviderLinksContext, type ProviderSignIn } from './lib/provider-links';
import { returnUrlWithToken, safeReturnTarget } from './lib/return-url';

interface LoginPageProps {
  params: LoginParams;
  api: AuthApi;
  /** navigate leaves the page (default: a full navigation, so the app boots with the token). */
  navigate?: (url: string) => void;
  /** brand is the hosted app's name, shown instead of this site's (absent: this site's own page). */
  brand?: string | undefined;
  /** returnOrigins are other origins `from_url` may return to (the server's CORS_ORIGINS). */
  returnOrigins?: readonly string[] | undefined;
  /** providerSignIn are the external providers the app enables, shown as buttons (absent: none). */
  providerSignIn?: ProviderSignIn | undefined;
}

const leave = (url: string) => window.location.assign(url);

/**
 * LoginPage is the platform's sign-in page: sign in, sign up with a mailed code, reset a password and
 * accept an invite. It returns to the same-origin `from_url` with `access_token` appended.
 */
export function LoginPage({
  params,
  api,
  navigate = leave,
  brand,
  returnOrigins,
  providerSignIn,
}: LoginPageProps) {
  useHydratedMarker();
  const [view, setView] = useState<LoginView>(() => initialView(params));
  const [moved, setMoved] = useState(false);

  useEffect(() => {
    // Mailed tokens work once: keep them out of the address bar, history and any later Referer.
    if (params.resetToken || params.inviteToken) {
      const { pathname, search, hash } = window.location;
      window.history.replaceState(
        window.history.state,
        '',
        `${pathname}${withoutMailedTokens(search)}${hash}`,
      );
    }
  }, [params.resetToken, params.inviteToken]);

  const go = useCallback((next: LoginView) => {
    setMoved(true);
    setView(next);
  }, []);
  const finish = useCallback(
    (token: string) =>
      navigate(returnUrlWithToken(params.fromUrl, window.location.origin, token, returnOrigins)),
    [navigate, params.fromUrl, returnOrigins],
  );

  const step: StepProps = { api, go, finish, focusOnShow: moved };
  const copy = useMemo(() => loginCopy(brand), [brand]);
  // The provider returns to the same checked from_url the email form would (the server checks it again).
  const links = useMemo(
    () =>
      providerSignIn
        ? providerLinks(
            providerSignIn,
            safeReturnTarget(params.fromUrl, window.location.origin, returnOrigins).href,
          )
        : [],
    [providerSignIn, params.fromUrl, returnOrigins],
  );
  return (
    <LoginCopyContext.Provider value={copy}>
      <ProviderLinksContext.Provider value={links}>
        <AuthCard brand={brand}>
          {view.step === 'sign-in' && <SignInForm {...step} email={view.email} notice={view.notice} />}
          {view.step === 'sign-up' && <SignUpForm {...step} email={view.email} />}
          {view.step === 'verify' && (
            <VerifyCodeForm {...step} email={view.email} password={view.password} notice={view.notice} />
          )}
          {view.step === 'forgot' && <ForgotPasswordForm {...step} email={view.email} />}
          {view.step === 'reset' && <SetPasswordForm {...step} token={view.token} invite={false} />}
          {view.step === 'invite' && <SetPasswordForm {...step} token={view.token} invite />}
        </AuthCard>
      </ProviderLinksContext.Provider>
    </LoginCopyContext.Provider>
  );
}
