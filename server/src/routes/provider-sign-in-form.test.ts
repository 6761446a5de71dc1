// A provider's `response_mode=form_post` answer (Apple) is a cross-site POST without our SameSite=Lax state
// cookie: the callback answers it with a 303 to the GET callback carrying the same fields (the ID token
// left out), bounded, and parses forms in that route only.
import { describe, expect, it } from 'vitest';
import { TEST_APP_ID, useTestPlatform } from '../test-support/build-test-platform';

const built = useTestPlatform();

function post(url: string, payload: string, type = 'application/x-www-form-urlencoded') {
  return built.app.inject({ method: 'POST', url, payload, headers: { 'content-type': type } });
}

describe('POST sign-in callback', () => {
  it.each(['/api/apps/auth/callback', '/api/apps/auth/final-callback'])(
    '%s answers 303 to the GET callback with the same fields',
    async (path) => {
      const user = JSON.stringify({ name: { firstName: 'Ann', lastName: 'Apple' } });
      const form = new URLSearchParams({ code: 'c1', state: 's 1&x', user, id_token: 'a.b.c' });
      const response = await post(path, form.toString());
      expect(response.statusCode).toBe(303);
      expect(response.headers['cache-control']).toBe('no-store');
      const location = new URL(String(response.headers.location), 'https://app.example');
      expect(location.pathname).toBe(path);
      expect(Object.fromEntries(location.searchParams)).toEqual({ code: 'c1', state: 's 1&x', user });
    },
  );

  it('refuses a body that is not a form, too many fields, or too large a form', async () => {
    expect((await post('/api/apps/auth/callback', '{"code":"x"}', 'application/json')).statusCode).toBe(400);
    const many = new URLSearchParams(
      Array.from({ length: 30 }, (_, i): [string, string] => [`f${i}`, 'x']),
    ).toString();
    expect((await post('/api/apps/auth/callback', many)).statusCode).toBe(400);
    const huge = new URLSearchParams({ state: 'x', user: 'a'.repeat(20_000) }).toString();
    expect((await post('/api/apps/auth/callback', huge)).statusCode).toBe(413);
  });

  it('parses forms on the callback only: another route still reads a form as text', async () => {
    const login = await post(`/api/apps/${TEST_APP_ID}/auth/login`, 'email=a%40b.c&password=x');
    expect(login.statusCode).toBe(400);
  });
});
