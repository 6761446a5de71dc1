// Every admin endpoint, found in the built platform's route table (so one added later is covered without
// touching this file), refuses a caller with no token (401) and a signed-in user who is not an admin
// (403), before it reads its input or does any work: the console's and the operator API's one rule.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../test-support/build-test-platform';

const test = useTestPlatform();
const ADMIN_PREFIX = '/api/apps/:appId/admin/';
const PASSWORD = 'correct horse battery';

/**
 * routesOf reads Fastify's printed route tree (`printRoutes({ commonPrefix: false })`): each line is a
 * path segment under its parent (indented 4 columns a level), with its methods in brackets when it has any.
 */
function routesOf(printed: string): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  const path: string[] = [];
  for (const line of printed.split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    path.length = depth;
    path.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      routes.push({ method, url: path.join('') });
    }
  }
  return routes;
}

const adminRoutes = () =>
  routesOf(test.app.printRoutes({ commonPrefix: false }))
    .filter(({ url, method }) => url.startsWith(ADMIN_PREFIX) && method !== 'HEAD')
    .map(({ method, url }) => ({
      method,
      url: url.replace(':appId', TEST_APP_ID).replace(/:[A-Za-z]+/g, 'x1'),
      route: `${method} ${url}`,
    }));

/**
 * bodyOf is a small body of the kind the route reads: JSON, or a multipart form for an import (whose
 * scope turns other bodies away before anything else, without reading them).
 */
function bodyOf(method: string, url: string) {
  if (method === 'GET' || method === 'DELETE') return {};
  if (!url.endsWith('/import')) return { payload: {} };
  const form = '--b\r\ncontent-disposition: form-data; name="file"; filename="a.csv"\r\n\r\na\r\n--b--\r\n';
  return { payload: form, headers: { 'content-type': 'multipart/form-data; boundary=b' } };
}

let userToken = '';
beforeAll(async () => {
  const email = 'plain@refusals.test';
  const created = await test.app.inject({
    method: 'POST',
    url: `/api/apps/${TEST_APP_ID}/admin/users`,
    headers: { authorization: `Bearer ${TEST_SERVICE_TOKEN}` },
    payload: { email, password: PASSWORD, role: 'user' },
  });
  expect(created.statusCode).toBe(201);
  const login = await test.app.inject({
    method: 'POST',
    url: `/api/apps/${TEST_APP_ID}/auth/login`,
    payload: { email, password: PASSWORD },
  });
  userToken = login.json<{ access_token: string }>().access_token;
});

describe('every admin endpoint', () => {
  it('is found in the route table (the parser sees the console and operator routes)', () => {
    const routes = adminRoutes().map(({ route }) => route);
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/apps/:appId/admin/overview',
        'PATCH /api/apps/:appId/admin/users/:id',
        'POST /api/apps/:appId/admin/functions/:name/invoke',
        'GET /api/apps/:appId/admin/agents/conversations/:id/live',
        'POST /api/apps/:appId/admin/integrations/files/prune',
      ]),
    );
  });

  it('refuses an anonymous caller (401) and a plain user (403), whatever its input', async () => {
    const answers: string[] = [];
    for (const { method, url, route } of adminRoutes()) {
      const call = (authorization?: string) =>
        test.app.inject({
          method: method as 'GET',
          url,
          ...bodyOf(method, url),
          headers: { ...bodyOf(method, url).headers, ...(authorization ? { authorization } : {}) },
        });
      const anonymous = await call();
      const user = await call(`Bearer ${userToken}`);
      answers.push(`${route} → ${anonymous.statusCode}, ${user.statusCode}`);
    }
    expect(answers).toEqual(answers.map((answer) => answer.replace(/→ .*$/, '→ 401, 403')));
  });
});
