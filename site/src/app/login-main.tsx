import { createRoot, hydrateRoot } from 'react-dom/client';
import { siteConfig } from '../config/site';
import { createAuthApi } from '../features/login/api/auth-api';
import { readLoginParams } from '../features/login/lib/login-params';
import { initialView } from '../features/login/lib/login-view';
import { LoginPage } from '../features/login/login-page';
import { readBootData } from '../lib/boot-data';
import { reportGlobalErrors } from '../lib/embedding';
import '../features/login/login.css';

// The sign-in page's entry. The app id comes from the serving platform (boot data), so the APP_ID the
// server starts with applies without a rebuild.

reportGlobalErrors();

const container = document.getElementById('root');
if (!container) throw new Error('login.html has no #root element');
const params = readLoginParams(window.location.search);
const boot = readBootData(document);
const appId = boot.appId ?? siteConfig.appId;
const api = createAuthApi(appId);
// The providers the app enables (boot data) get a "Continue with …" button each.
const providerSignIn = boot.signInProviders
  ? { appId, providers: boot.signInProviders, ssoName: boot.ssoName }
  : undefined;
// Hosting another app, the server names it in the boot data: the page shows that name, not this site's.
const page = (
  <LoginPage
    params={params}
    api={api}
    brand={boot.hostedAppName}
    returnOrigins={boot.returnOrigins}
    providerSignIn={providerSignIn}
  />
);

// The HTML was prerendered as this site's sign-in step without provider buttons; a mailed link opens
// another step, a hosted app's page shows another name, and providers add buttons, so those render afresh.
if (
  initialView(params).step === 'sign-in' &&
  boot.hostedAppName === undefined &&
  providerSignIn === undefined
) {
  hydrateRoot(container, page);
} else {
  container.textContent = '';
  createRoot(container).render(page);
}
