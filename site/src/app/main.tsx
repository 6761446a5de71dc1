import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { initialAuthState, showsSpinner } from '../features/shell/auth-state';
import { appParams, bootData } from '../lib/app-context';
import { startHydrationSlices } from '../lib/hydration-slices';
import { reportGlobalErrors } from '../lib/embedding';
import { getPlatformClient } from '../lib/platform-client';
import { listenForComingSoon } from '../features/marketing/components/coming-soon';
import { captureStaticIslands } from '../features/marketing/components/static-island';
import { App } from './app';
import '../styles/app.css';

const PLATFORM_IDLE_DELAY_MS = 8000;

reportGlobalErrors();
listenForComingSoon();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const app = <App pathname={window.location.pathname} />;

// The HTML was prerendered for an anonymous visitor of a public app. Hydrate it when that is what this
// visitor will see; otherwise (settings unknown, e.g. a private app) render afresh behind the spinner.
// Read before React touches the DOM: static sections keep exactly the HTML the build rendered.
captureStaticIslands(container);
if (showsSpinner(initialAuthState(bootData.publicSettings, Boolean(appParams.token)))) {
  container.textContent = '';
  createRoot(container).render(app);
} else {
  // As a transition, React DOM (dev server, tests) yields to the browser every few milliseconds while it
  // hydrates. The production bundle runs on preact/compat (scripts/home-runtime.ts), which hydrates at once:
  // ~15 ms of CPU, less than React DOM's first slice; the page's slices (lib/hydration-slices.tsx) split it.
  startHydrationSlices();
  startTransition(() => {
    hydrateRoot(container, app);
  });
}

// The platform client (and with it the SDK's analytics) loads at the visitor's first interaction, or once
// the page has been idle for a while, so it never competes with the first paint or with hydration.
// Anything that needs it sooner (a hero image to generate, a signed-in visitor, the 404 user check)
// loads it on demand.
const loadPlatform = () => void getPlatformClient();
for (const type of ['pointerdown', 'keydown', 'scroll', 'touchstart'] as const) {
  window.addEventListener(type, loadPlatform, { once: true, passive: true });
}
window.addEventListener('load', () => setTimeout(loadPlatform, PLATFORM_IDLE_DELAY_MS), { once: true });
