import type * as Sdk from '@base44/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, renderUi, screen, waitFor } from '../../testing/react-root';
import { ConsoleApp } from './console-app';
import { CONSOLE_SESSION_KEY } from './lib/console-session';
import { formatUptime } from './pages/overview-page';

// The console's session, with the API mocked at the network: sign-in keeps the token in sessionStorage
// only, a user who is not an admin gets "Admins only", and signing out ends the session on the server and
// forgets the token.

// The SDK's HTTP client (axios) keeps the fetch it found at load, past the stub below: this double of
// createClient sends the SDK's `auth.me()` request through the stubbed fetch, with the headers the console
// configured, so the test sees what the console asked the SDK to send.
vi.mock('@base44/sdk', async (importActual) => ({
  ...(await importActual<typeof Sdk>()),
  createClient: (config: { appId: string; headers?: Record<string, string> }) => ({
    auth: {
      me: async () => {
        const response = await fetch(`/api/apps/${config.appId}/entities/User/me`, {
          headers: config.headers,
        });
        return (await response.json()) as unknown;
      },
    },
  }),
}));

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function mockServer(role: string) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.endsWith('/auth/sessions/current') && init?.method === 'DELETE')
      return json(200, { ended: true });
    if (url.endsWith('/auth/sessions')) {
      const { password } = JSON.parse(String(init?.body)) as { password: string };
      return password === 'right'
        ? json(200, { access_token: 'console-token' })
        : json(401, { message: 'Invalid email or password' });
    }
    if (url.endsWith('/entities/User/me')) return json(200, { email: 'ann@example.com', role });
    return json(404, { message: 'not here' });
  });
}

async function signIn(password: string) {
  fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'ann@example.com' } });
  fireEvent.input(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('ConsoleApp', () => {
  it('shows the server message for a wrong password, and keeps nothing', async () => {
    vi.stubGlobal('fetch', mockServer('admin'));
    renderUi(<ConsoleApp appId="app-1" />);
    await signIn('wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password');
    expect(sessionStorage.getItem(CONSOLE_SESSION_KEY)).toBeNull();
  });

  it('gives a user who is not an admin "Admins only", and signing out forgets the token', async () => {
    const fetchMock = mockServer('user');
    vi.stubGlobal('fetch', fetchMock);
    renderUi(<ConsoleApp appId="app-1" />);
    await signIn('right');
    expect(await screen.findByRole('heading', { name: 'Admins only' })).toBeTruthy();
    expect(sessionStorage.getItem(CONSOLE_SESSION_KEY)).toBe('console-token');
    expect(localStorage.getItem('base44_access_token')).toBeNull();
    const meCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/User/me'));
    expect(new Headers(meCall?.[1]?.headers).get('authorization')).toBe('Bearer console-token');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Console sign-in' })).toBeTruthy());
    expect(sessionStorage.getItem(CONSOLE_SESSION_KEY)).toBeNull();
    const ended = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/auth/sessions/current'));
    expect(ended?.[1]?.method).toBe('DELETE');
    expect(new Headers(ended?.[1]?.headers).get('authorization')).toBe('Bearer console-token');
  });
});

describe('formatUptime', () => {
  it('says the two largest units', () => {
    expect(formatUptime(0)).toBe('0 s');
    expect(formatUptime(59)).toBe('59 s');
    expect(formatUptime(3725)).toBe('1 h 2 min');
    expect(formatUptime(90061)).toBe('1 d 1 h');
  });
});
