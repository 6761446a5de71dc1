import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bootScript } from '../page-contract/page-contract';
import { act, renderUi, screen } from '../testing/react-root';

// The shell's decisions (spinner, login redirect, Access Restricted, site) for each platform answer. The
// platform client is replaced by a scripted one; everything else is the real app.

const platform = {
  app: { getPublicSettings: vi.fn() },
  auth: { me: vi.fn(), redirectToLogin: vi.fn(), logout: vi.fn() },
  integrations: { Core: { GenerateImage: vi.fn() } },
  cleanup: vi.fn(),
};

vi.mock('../lib/platform-client', () => ({
  getPlatformClient: () => Promise.resolve(platform),
  dropRejectedToken: vi.fn(() => Promise.resolve()),
}));

const forbidden = (reason: string) =>
  Object.assign(new Error('Forbidden'), { status: 403, data: { extra_data: { reason } } });

interface Scenario {
  publicSettings: string | null;
  token?: string;
}

beforeEach(() => {
  vi.resetModules();
  vi.clearAllMocks();
  platform.integrations.Core.GenerateImage.mockResolvedValue({ url: '/media/queen.svg' });
});

afterEach(() => {
  document.head.innerHTML = '';
  localStorage.clear();
});

async function renderApp({ publicSettings, token }: Scenario) {
  const boot = {
    appId: 'test-app',
    publicSettings: publicSettings ? { id: 'test-app', public_settings: publicSettings } : null,
    heroImageUrl: null,
  };
  document.head.innerHTML = bootScript(boot);
  if (token) localStorage.setItem('base44_access_token', token);
  const { App } = await import('./app');
  renderUi(<App pathname="/" />);
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

const text = () => document.body.textContent ?? '';
const pageHeading = () => screen.getByRole('heading', { level: 1 }).textContent;

describe('App shell', () => {
  it('renders Home at once for an anonymous visitor of a public app, asking the platform nothing', async () => {
    await renderApp({ publicSettings: 'public_without_login' });
    expect(pageHeading()).toContain('QUEEN SOLANA');
    expect(platform.app.getPublicSettings).not.toHaveBeenCalled();
    expect(platform.auth.me).not.toHaveBeenCalled();
  });

  it('redirects to the login page when the platform answers auth_required', async () => {
    platform.app.getPublicSettings.mockRejectedValue(forbidden('auth_required'));
    await renderApp({ publicSettings: null });
    expect(platform.auth.redirectToLogin).toHaveBeenCalledWith(window.location.href);
    expect(screen.getByRole('status')).not.toBeNull();
    expect(text()).not.toContain('QUEEN OF QUEENS');
  });

  it('shows Access Restricted when the user is not registered for the app', async () => {
    platform.app.getPublicSettings.mockRejectedValue(forbidden('user_not_registered'));
    await renderApp({ publicSettings: null, token: 'tok' });
    // The screen is a lazily loaded chunk.
    await vi.waitFor(() => expect(pageHeading()).toBe('Access Restricted'));
    expect(text()).toContain(
      'You are not registered to use this application. Please contact the app administrator to request access.',
    );
    expect(platform.auth.redirectToLogin).not.toHaveBeenCalled();
  });

  it('still renders the site on any other failure', async () => {
    platform.app.getPublicSettings.mockRejectedValue(Object.assign(new Error('boom'), { status: 500 }));
    await renderApp({ publicSettings: null });
    expect(text()).toContain('QUEEN OF QUEENS');
    expect(platform.auth.redirectToLogin).not.toHaveBeenCalled();
  });

  it('on an app that requires login, a rejected token sends the visitor to log in', async () => {
    platform.app.getPublicSettings.mockResolvedValue({
      id: 'test-app',
      public_settings: 'private_with_login',
    });
    platform.auth.me.mockRejectedValue(Object.assign(new Error('Unauthorized'), { status: 401 }));
    await renderApp({ publicSettings: null, token: 'stale' });
    expect(platform.auth.redirectToLogin).toHaveBeenCalledTimes(1);
  });

  it('on a public app, a signed-in visitor sees Home while the user check runs', async () => {
    platform.auth.me.mockResolvedValue({ id: 'u1', role: 'user' });
    await renderApp({ publicSettings: 'public_without_login', token: 'good' });
    expect(text()).toContain('QUEEN OF QUEENS');
    expect(platform.auth.me).toHaveBeenCalledTimes(1);
    expect(platform.auth.redirectToLogin).not.toHaveBeenCalled();
  });
});
