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
const api = createAuthApi(readBootData(document).appId ?? siteConfig.appId);
const page = <LoginPage params={params} api={api} />;

// The HTML was prerendered as the sign-in step; a mailed link opens another step, rendered afresh.
if (initialView(params).step === 'sign-in') {
  hydrateRoot(container, page);
} else {
  container.textContent = '';
  createRoot(container).render(page);
}
