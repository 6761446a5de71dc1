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
const api = createAuthApi(boot.appId ?? siteConfig.appId);
// Hosting another app, the server names it in the boot data: the page shows that name, not this site's.
const page = (
  <LoginPage params={params} api={api} brand={boot.hostedAppName} returnOrigins={boot.returnOrigins} />
);

// The HTML was prerendered as this site's sign-in step; a mailed link opens another step, and a hosted
// app's page shows another name, so both are rendered afresh.
if (initialView(params).step === 'sign-in' && boot.hostedAppName === undefined) {
  hydrateRoot(container, page);
} else {
  container.textContent = '';
  createRoot(container).render(page);
}
