// The HTTP edge of the whole platform, in-process (app.inject): unknown routes, validation answers and the
// error shape (docs/protocol-notes.md, "Errors"). The e2e suite checks the same through a real process.
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { TEST_APP_ID, TEST_SERVICE_TOKEN, useTestPlatform } from '../test-support/build-test-platform';

const built = useTestPlatform();

const api = `/api/apps/${TEST_APP_ID}`;
const service = { authorization: `Bearer ${TEST_SERVICE_TOKEN}` };

async function send(options: InjectOptions) {
  const response = await built.app.inject(options);
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.json() as Record<string, unknown>,
  };
}

describe('unknown routes', () => {
  it('answers an unknown API route with a JSON 404 naming it', async () => {
    expect(await send({ url: '/api/no-such-route' })).toMatchObject({
      status: 404,
      body: { message: 'No API route for GET /api/no-such-route' },
    });
    expect((await send({ method: 'POST', url: `${api}/nothing-here` })).status).toBe(404);
  });

  it('answers a malformed URL with 400 in the same shape', async () => {
    expect(await send({ url: `${api}/entities/Todo/%E0%A4%A` })).toMatchObject({
      status: 400,
      body: { message: 'The URL is not valid: it holds a malformed percent-encoding' },
    });
  });

  it('answers an unknown app and an unknown entity with 404', async () => {
    const unknownApp = await send({ url: '/api/apps/no-such-app/entities/Todo' });
    expect(unknownApp.status).toBe(404);
    expect(typeof unknownApp.body.message).toBe('string');
    expect((await send({ url: `${api}/entities/NoSuchEntity` })).status).toBe(404);
  });
});

describe('validation answers: 400 with one string message', () => {
  it('refuses a body that is not JSON', async () => {
    const answer = await send({
      method: 'POST',
      url: `${api}/entities/Todo`,
      headers: { 'content-type': 'application/json' },
      payload: '{"title":',
    });
    expect(answer.status).toBe(400);
    expect(typeof answer.body.message).toBe('string');
  });

  it('names each bad field of a schema-validated body', async () => {
    const answer = await send({
      method: 'POST',
      url: `${api}/analytics/track/batch`,
      payload: { events: [{ event_name: '' }] },
    });
    expect(answer).toEqual(
      expect.objectContaining({ status: 400, body: { message: 'events.0.event_name: must not be empty' } }),
    );
    const login = await send({ method: 'POST', url: `${api}/auth/login`, payload: [] });
    expect(login).toMatchObject({ status: 400, body: { message: 'the body must be a JSON object' } });
  });

  it('refuses a bad query string', async () => {
    const answer = await send({ url: `${api}/entities/Todo?limit=-1` });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('limit');
  });
});

describe('entity body envelopes', () => {
  const todo = `${api}/entities/Todo`;

  it('answers a record that is not an object with the 422 validation envelope', async () => {
    for (const options of [
      { method: 'POST', url: todo, payload: [{ title: 'x' }] },
      { method: 'PUT', url: `${todo}/some-id`, payload: ['x'] },
    ] as InjectOptions[]) {
      expect(await send(options)).toMatchObject({
        status: 422,
        body: { error_type: 'ValidationError', message: 'The record must be a JSON object' },
      });
    }
  });

  it.each([
    ['POST', 'bulk', { title: 'x' }, 'Request body must be an array'],
    ['PUT', 'bulk', { id: 'x' }, 'Request body must be an array of {id, ...fields}'],
    ['PATCH', 'update-many', [1], 'updateMany needs a body {"query": {...}, "data": {...}}'],
    ['PATCH', 'update-many', { query: 1, data: {} }, 'updateMany needs "query" to be an object'],
    ['POST', 'upsert', { records: {}, key: 'title' }, 'upsert needs "records" to be an array'],
    [
      'POST',
      'upsert',
      { records: [] },
      'upsert needs "key": a field of the entity, or an array of up to 4 fields',
    ],
    ['POST', 'aggregate', [], 'Invalid aggregate spec: the request body must be a JSON object'],
  ])('%s %s with %j: 400 "%s"', async (method, path, payload, message) => {
    expect(await send({ method: method as 'POST', url: `${todo}/${path}`, payload })).toEqual(
      expect.objectContaining({ status: 400, body: { message } }),
    );
  });

  it('refuses deleteMany without a query object', async () => {
    expect(await send({ method: 'DELETE', url: todo, payload: [1] })).toMatchObject({
      status: 400,
      body: { message: 'deleteMany needs a query object as the request body' },
    });
  });

  it('accepts well-formed envelopes (fields are the entity validator’s)', async () => {
    const created = await send({ method: 'POST', url: todo, payload: { title: 'edge' } });
    expect(created.status).toBe(201);
    const invalid = await send({ method: 'POST', url: todo, payload: { title: 5 } });
    expect(invalid.status).toBe(422);
    const updated = await send({
      method: 'PATCH',
      url: `${todo}/update-many`,
      headers: service,
      payload: { query: { title: 'edge' }, data: { $set: { done: true } } },
    });
    expect(updated).toMatchObject({ status: 200, body: { success: true, updated: 1 } });
  });

  it('names the bulk limit when a bulk body is too large', async () => {
    const answer = await send({
      method: 'POST',
      url: `${todo}/bulk`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify([{ title: 'x'.repeat(6 * 1024 * 1024) }]),
    });
    expect(answer).toMatchObject({
      status: 413,
      body: { message: 'The request body is larger than the 5 MB limit' },
    });
  });
});

describe('errors in the protocol shape', () => {
  it('refuses the operator API without the service token: 401 with a message', async () => {
    const answer = await send({ method: 'POST', url: `${api}/admin/realtime/ping`, payload: { room: 'x' } });
    expect(answer.status).toBe(401);
    expect(typeof answer.body.message).toBe('string');
  });

  it('keeps the realtime ping to the caller’s own app (403), and publishes otherwise (202)', async () => {
    const other = await send({
      method: 'POST',
      url: `${api}/admin/realtime/ping`,
      headers: service,
      payload: { room: 'entities:another-app:Todo' },
    });
    expect(other.status).toBe(403);
    const own = await send({
      method: 'POST',
      url: `${api}/admin/realtime/ping`,
      headers: service,
      payload: { room: `entities:${TEST_APP_ID}:Todo` },
    });
    expect(own).toMatchObject({ status: 202, body: { event: 'ping' } });
  });

  it('serves the auth prefix from one place: SSO needs the service role, logout redirects on site', async () => {
    expect((await send({ url: `${api}/auth/sso/accesstoken/someone` })).status).toBe(401);
    const logout = await built.app.inject({
      url: '/api/apps/auth/logout?from_url=https%3A%2F%2Fevil.example%2F',
    });
    expect(logout.statusCode).toBe(302);
    expect(logout.headers.location).toBe('/');
  });

  it('answers a body over 1 MB on an ordinary route with 413', async () => {
    const answer = await send({
      method: 'POST',
      url: `${api}/entities/Todo`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expect(answer).toMatchObject({
      status: 413,
      body: { message: 'The request body is larger than the 1 MB limit' },
    });
  });
});
