import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, renderUi, screen } from '../../testing/react-root';
import type { AuthApi } from './api/auth-api';
import type { LoginParams } from './lib/login-params';
import type { ProviderSignIn } from './lib/provider-links';
import { LoginPage } from './login-page';

const ORIGIN = window.location.origin;
let navigate: ReturnType<typeof vi.fn<(url: string) => void>>;

function fakeApi(overrides: Partial<AuthApi> = {}): AuthApi {
  return {
    signIn: vi.fn(async () => 'jwt-signed-in'),
    register: vi.fn(async () => undefined),
    verifyCode: vi.fn(async () => 'jwt-verified'),
    resendCode: vi.fn(async () => undefined),
    requestPasswordReset: vi.fn(
      async () => 'If an account exists for this email, a reset link has been sent',
    ),
    setPassword: vi.fn(async () => 'Your password has been set: sign in with it'),
    ...overrides,
  };
}

function render(api: AuthApi, params: Partial<LoginParams> = {}) {
  renderUi(
    <LoginPage
      api={api}
      navigate={navigate}
      params={{ fromUrl: `${ORIGIN}/missing`, resetToken: null, inviteToken: null, ...params }}
    />,
  );
}

const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label, { exact: true });

function type(label: string, value: string) {
  fireEvent.input(field(label), { target: { value } });
}

const button = (name: string) => screen.getByRole('button', { name });

/** submit submits the step's form, as pressing Enter in one of its fields does. */
async function submit() {
  const submitButton = screen
    .getAllByRole<HTMLButtonElement>('button')
    .find((candidate) => candidate.type === 'submit');
  if (!submitButton?.form) throw new Error('no form with a submit button on the page');
  const form = submitButton.form;
  await act(async () => {
    fireEvent.submit(form);
  });
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;
const alertText = () => screen.getByRole('alert').textContent;
const statusText = () => screen.getByRole('status').textContent;

beforeEach(() => {
  navigate = vi.fn<(url: string) => void>();
});

describe('LoginPage', () => {
  it('signs in and returns to from_url with the access token', async () => {
    const api = fakeApi();
    render(api);
    expect(heading()).toBe('Sign in');
    type('Email', 'queen@example.com');
    type('Password', 'crown-jewels');
    await submit();
    expect(api.signIn).toHaveBeenCalledWith('queen@example.com', 'crown-jewels');
    expect(navigate).toHaveBeenCalledWith(`${ORIGIN}/missing?access_token=jwt-signed-in`);
  });

  it('refuses a from_url on another origin and goes home', async () => {
    render(fakeApi(), { fromUrl: 'https://evil.example/' });
    type('Email', 'queen@example.com');
    type('Password', 'x');
    await submit();
    expect(navigate).toHaveBeenCalledWith(`${ORIGIN}/?access_token=jwt-signed-in`);
  });

  it("shows the server's message inline when sign-in fails", async () => {
    const failure = Object.assign(new Error('Request failed'), {
      status: 401,
      data: { message: 'Invalid email or password' },
    });
    render(fakeApi({ signIn: vi.fn(async () => Promise.reject(failure)) }));
    type('Email', 'queen@example.com');
    type('Password', 'wrong');
    await submit();
    expect(alertText()).toBe('Invalid email or password');
    expect(navigate).not.toHaveBeenCalled();
    expect(button('Sign in').getAttribute('aria-disabled')).toBeNull();
  });

  it('signs up, takes the mailed code, and returns with the new token', async () => {
    const api = fakeApi();
    render(api);
    fireEvent.click(button('Create an account'));
    expect(heading()).toBe('Create your account');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    type('Email', 'new@example.com');
    type('Password', 'long-enough-secret');
    await submit();
    expect(api.register).toHaveBeenCalledWith('new@example.com', 'long-enough-secret');
    expect(heading()).toBe('Check your email');
    const code = field('Verification code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(document.activeElement).toBe(code);

    await act(async () => fireEvent.click(button('Resend code')));
    expect(api.resendCode).toHaveBeenCalledWith('new@example.com');
    expect(statusText()).toContain('We sent a new code');

    type('Verification code', '12 34 56');
    expect(code.value).toBe('123456');
    await submit();
    expect(api.verifyCode).toHaveBeenCalledWith('new@example.com', '123456');
    expect(navigate).toHaveBeenCalledWith(`${ORIGIN}/missing?access_token=jwt-verified`);
  });

  it('signs in with the password when the code answer carries no token', async () => {
    const api = fakeApi({ verifyCode: vi.fn(async () => null) });
    render(api);
    fireEvent.click(button('Create an account'));
    type('Email', 'new@example.com');
    type('Password', 'secret-secret');
    await submit();
    type('Verification code', '654321');
    await submit();
    expect(api.signIn).toHaveBeenCalledWith('new@example.com', 'secret-secret');
    expect(navigate).toHaveBeenCalledWith(`${ORIGIN}/missing?access_token=jwt-signed-in`);
  });

  it('requests a reset link and says so, whatever the email', async () => {
    const api = fakeApi();
    render(api);
    type('Email', 'queen@example.com');
    fireEvent.click(button('Forgot password?'));
    expect(heading()).toBe('Reset your password');
    expect(field('Email').value).toBe('queen@example.com');
    await submit();
    expect(api.requestPasswordReset).toHaveBeenCalledWith('queen@example.com');
    expect(statusText()).toContain('a reset link has been sent');
  });

  it('sets a new password from a reset link, then offers sign-in', async () => {
    const api = fakeApi();
    render(api, { resetToken: 'reset-1' });
    expect(heading()).toBe('Choose a new password');
    type('New password', 'brand-new-secret');
    type('Confirm new password', 'brand-new-typo');
    await submit();
    expect(alertText()).toBe('The two passwords do not match.');
    expect(api.setPassword).not.toHaveBeenCalled();
    type('Confirm new password', 'brand-new-secret');
    await submit();
    expect(api.setPassword).toHaveBeenCalledWith('reset-1', 'brand-new-secret');
    expect(heading()).toBe('Sign in');
    expect(statusText()).toBe('Your password has been set: sign in with it');
  });

  it('accepts an invite and signs in straight away', async () => {
    const api = fakeApi();
    render(api, { inviteToken: 'invite-1' });
    expect(heading()).toBe('Accept your invitation');
    type('Invited email', 'guest@example.com');
    type('New password', 'guest-secret-1');
    type('Confirm new password', 'guest-secret-1');
    await submit();
    expect(api.setPassword).toHaveBeenCalledWith('invite-1', 'guest-secret-1');
    expect(api.signIn).toHaveBeenCalledWith('guest@example.com', 'guest-secret-1');
    expect(navigate).toHaveBeenCalledWith(`${ORIGIN}/missing?access_token=jwt-signed-in`);
  });

  it('sends an unverified account to the code step with a fresh code', async () => {
    const unverified = Object.assign(new Error('Forbidden'), {
      status: 403,
      data: { message: 'Verify your email', extra_data: { reason: 'email_not_verified' } },
    });
    const api = fakeApi({ signIn: vi.fn(async () => Promise.reject(unverified)) });
    render(api);
    type('Email', 'new@example.com');
    type('Password', 'secret');
    await submit();
    expect(heading()).toBe('Check your email');
    expect(api.resendCode).toHaveBeenCalledWith('new@example.com');
  });

  it('names a hosted app instead of this site when given its brand, and still returns with the token', async () => {
    const api = fakeApi();
    renderUi(
      <LoginPage
        api={api}
        navigate={navigate}
        brand="Camp Planner"
        params={{ fromUrl: `${ORIGIN}/trips`, resetToken: null, inviteToken: null }}
      />,
    );
    expect(screen.getByRole('link', { name: 'Camp Planner' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Camp Planner' })).toBeTruthy();
    expect(screen.queryByText('QUEEN SOLANA')).toBeNull();
    expect(screen.getByText('Welcome back to Camp Planner.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Royal Court|kingdom/);
    type('Email', 'camper@example.com');
    type('Password', 'secret');
    await submit();
    expect(navigate).toHaveBeenCalledWith(`${ORIGIN}/trips?access_token=jwt-signed-in`);
  });

  describe('external sign-in providers', () => {
    const fromUrl = `${ORIGIN}/settings?tab=profile`;
    const encodedFrom = encodeURIComponent(fromUrl);
    const renderWith = (providerSignIn: ProviderSignIn | undefined, params: Partial<LoginParams> = {}) =>
      renderUi(
        <LoginPage
          api={fakeApi()}
          navigate={navigate}
          brand="Camp Planner"
          providerSignIn={providerSignIn}
          params={{ fromUrl, resetToken: null, inviteToken: null, ...params }}
        />,
      );
    const link = (name: string) => screen.getByRole<HTMLAnchorElement>('link', { name });
    const hrefOf = (name: string) => link(name).getAttribute('href');

    it('shows a link per enabled provider, each to the route the SDK uses, returning to from_url', () => {
      renderWith({
        appId: 'camp-app',
        providers: ['google', 'microsoft', 'github', 'facebook', 'apple', 'sso'],
        ssoName: 'Okta',
      });
      const query = `app_id=camp-app&from_url=${encodedFrom}`;
      expect(hrefOf('Continue with Google')).toBe(`/api/apps/auth/login?${query}`);
      expect(hrefOf('Continue with Microsoft')).toBe(`/api/apps/auth/microsoft/login?${query}`);
      expect(hrefOf('Continue with GitHub')).toBe(`/api/apps/auth/github/login?${query}`);
      expect(hrefOf('Continue with Facebook')).toBe(`/api/apps/auth/facebook/login?${query}`);
      expect(hrefOf('Continue with Apple')).toBe(`/api/apps/auth/apple/login?${query}`);
      expect(hrefOf('Continue with Okta')).toBe(`/api/apps/camp-app/auth/sso/login?${query}`);
      // In that order, before the "or" and the email form.
      const names = Array.from(
        screen.getByRole('list', { name: 'Other ways to sign in' }).querySelectorAll('a'),
        (anchor) => anchor.textContent,
      );
      expect(names).toEqual([
        'Continue with Google',
        'Continue with Microsoft',
        'Continue with GitHub',
        'Continue with Facebook',
        'Continue with Apple',
        'Continue with Okta',
      ]);
      const or = screen.getByText('or');
      const email = field('Email');
      expect(link('Continue with Okta').compareDocumentPosition(or)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
      expect(or.compareDocumentPosition(email) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    });

    it('labels SSO "single sign-on" without a name, and shows only the providers enabled', () => {
      renderWith({ appId: 'camp-app', providers: ['sso'] });
      expect(hrefOf('Continue with single sign-on')).toBe(
        `/api/apps/camp-app/auth/sso/login?app_id=camp-app&from_url=${encodedFrom}`,
      );
      expect(screen.getAllByRole('link', { name: /^Continue with/ })).toHaveLength(1);
    });

    it('sends a from_url on another origin home, as the email form does', () => {
      renderWith({ appId: 'camp-app', providers: ['google'] }, { fromUrl: 'https://evil.example/steal' });
      expect(hrefOf('Continue with Google')).toBe(
        `/api/apps/auth/login?app_id=camp-app&from_url=${encodeURIComponent(`${ORIGIN}/`)}`,
      );
    });

    it('offers the providers on the sign-up step too, but not on the others', () => {
      renderWith({ appId: 'camp-app', providers: ['google'] });
      fireEvent.click(button('Create an account'));
      expect(heading()).toBe('Create your account');
      expect(link('Continue with Google')).toBeTruthy();
      fireEvent.click(button('Sign in'));
      fireEvent.click(button('Forgot password?'));
      expect(heading()).toBe('Reset your password');
      expect(screen.queryByRole('link', { name: /^Continue with/ })).toBeNull();
    });

    it('without providers the page is as before: no buttons, no "or"', () => {
      renderWith(undefined);
      expect(screen.queryByRole('link', { name: /^Continue with/ })).toBeNull();
      expect(screen.queryByText('or')).toBeNull();
      renderWith({ appId: 'camp-app', providers: [] });
      expect(screen.queryByRole('list', { name: 'Other ways to sign in' })).toBeNull();
    });
  });
});
