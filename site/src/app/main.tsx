import { createRoot, hydrateRoot } from 'react-dom/client';
import { initialAuthState, showsSpinner } from '../features/shell/auth-state';
import { appParams, bootData } from '../lib/app-context';
import { reportGlobalErrors } from '../lib/embedding';
import { getPlatformClient } from '../lib/platform-client';
import { App } from './app';
import '../styles/app.css';

reportGlobalErrors();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const app = <App pathname={window.location.pathname} />;

// The HTML was prerendered for an anonymous visitor of a public app. Hydrate it when that is what this
// visitor will see; otherwise (settings unknown, e.g. a private app) render afresh behind the spinner.
if (showsSpinner(initialAuthState(bootData.publicSettings, Boolean(appParams.token)))) {
  container.textContent = '';
  createRoot(container).render(app);
} else {
  hydrateRoot(container, app);
}

// Load the platform client once the page is idle, so its analytics start without delaying first paint.
const whenIdle = window.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 1500));
whenIdle(() => void getPlatformClient());
