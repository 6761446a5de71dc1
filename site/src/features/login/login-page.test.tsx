import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthApi } from './api/auth-api';
import type { LoginParams } from './lib/login-params';
import { LoginPage } from './login-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORIGIN = window.location.origin;
let container: HTMLDivElement;
let root: Root;
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
  act(() =>
    root.render(
      <LoginPage
        api={api}
        navigate={navigate}
        params={{ fromUrl: `${ORIGIN}/missing`, resetToken: null, inviteToken: null, ...params }}
      />,
    ),
  );
}

const field = (label: string) => {
  const labelElement = [...container.querySelectorAll('label')].find((node) => node.textContent === label);
  const input =
    labelElement && container.querySelector<HTMLInputElement>(`#${CSS.escape(labelElement.htmlFor)}`);
  if (!input) throw new Error(`no field labelled ${label}`);
  return input;
};

function type(label: string, value: string) {
  const input = field(label);
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  act(() => {
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

const button = (name: string) => {
  const found = [...container.querySelectorAll('button')].find((node) => node.textContent === name);
  if (!found) throw new Error(`no button ${name}`);
  return found;
};

async function submit() {
  const form = container.querySelector('form');
  await act(async () => {
    form?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
}

const heading = () => container.querySelector('h1')?.textContent;

beforeEach(() => {
  navigate = vi.fn<(url: string) => void>();
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
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
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('Invalid email or password');
    expect(navigate).not.toHaveBeenCalled();
    expect(button('Sign in').getAttribute('aria-disabled')).toBeNull();
  });

  it('signs up, takes the mailed code, and returns with the new token', async () => {
    const api = fakeApi();
    render(api);
    act(() => button('Create an account').click());
    expect(heading()).toBe('Create your account');
    expect(document.activeElement).toBe(container.querySelector('h1'));
    type('Email', 'new@example.com');
    type('Password', 'long-enough-secret');
    await submit();
    expect(api.register).toHaveBeenCalledWith('new@example.com', 'long-enough-secret');
    expect(heading()).toBe('Check your email');
    const code = field('Verification code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(document.activeElement).toBe(code);

    await act(async () => button('Resend code').click());
    expect(api.resendCode).toHaveBeenCalledWith('new@example.com');
    expect(container.querySelector('[role="status"]')?.textContent).toContain('We sent a new code');

    type('Verification code', '12 34 56');
    expect(code.value).toBe('123456');
    await submit();
    expect(api.verifyCode).toHaveBeenCalledWith('new@example.com', '123456');
    expect(navigate).toHaveBeenCalledWith(`${ORIGIN}/missing?access_token=jwt-verified`);
  });

  it('signs in with the password when the code answer carries no token', async () => {
    const api = fakeApi({ verifyCode: vi.fn(async () => null) });
    render(api);
    act(() => button('Create an account').click());
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
    act(() => button('Forgot password?').click());
    expect(heading()).toBe('Reset your password');
    expect(field('Email').value).toBe('queen@example.com');
    await submit();
    expect(api.requestPasswordReset).toHaveBeenCalledWith('queen@example.com');
    expect(container.querySelector('[role="status"]')?.textContent).toContain('a reset link has been sent');
  });

  it('sets a new password from a reset link, then offers sign-in', async () => {
    const api = fakeApi();
    render(api, { resetToken: 'reset-1' });
    expect(heading()).toBe('Choose a new password');
    type('New password', 'brand-new-secret');
    type('Confirm new password', 'brand-new-typo');
    await submit();
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('The two passwords do not match.');
    expect(api.setPassword).not.toHaveBeenCalled();
    type('Confirm new password', 'brand-new-secret');
    await submit();
    expect(api.setPassword).toHaveBeenCalledWith('reset-1', 'brand-new-secret');
    expect(heading()).toBe('Sign in');
    expect(container.querySelector('[role="status"]')?.textContent).toBe(
      'Your password has been set: sign in with it',
    );
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
});
