// Entity bodies are validated at the route: a malformed envelope never reaches the service.
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntitiesService } from '../services/entities/entities-service';
import type { UsersService } from '../services/auth/users-service';
import type { CallerGuard } from './caller-guard';
import { registerEntitiesRoutes } from './entities';
import { handleError } from './error-map';
import { createRegexBudget } from '../services/limits/regex-budget';
import { createUsageCounter } from '../services/limits/usage-counter';

const calls: { method: string; args: unknown[] }[] = [];
// Every service method records its call and answers an empty object.
const entities = new Proxy({} as EntitiesService, {
  get:
    (_target, method: string) =>
    async (...args: unknown[]) => {
      calls.push({ method, args });
      return {};
    },
});
const guard = { dataCaller: async () => ({ kind: 'anonymous' }) } as unknown as CallerGuard;

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  app.setErrorHandler(handleError);
  registerEntitiesRoutes(app, {
    guard,
    entities,
    users: {} as UsersService,
    regexBudget: createRegexBudget(createUsageCounter({ windowMs: 60_000 }), 60_000),
    imports: { importFile: () => Promise.reject(new Error('no imports here')) },
  });
  await app.ready();
});

afterAll(() => app.close());

const todo = '/api/apps/app/entities/Todo';

describe('entity routes validate each body envelope', () => {
  it.each([
    ['POST', todo, { title: 'x' }, 'create'],
    ['PUT', `${todo}/r1`, { title: 'x' }, 'update'],
    ['POST', `${todo}/bulk`, [{ title: 'x' }], 'bulkCreate'],
    ['PUT', `${todo}/bulk`, [{ id: 'r1' }], 'bulkUpdate'],
    ['PATCH', `${todo}/update-many`, { query: {}, data: { $set: { done: true } } }, 'updateMany'],
    ['POST', `${todo}/upsert`, { records: [], key: ['title'] }, 'upsert'],
    ['POST', `${todo}/aggregate`, { groupBy: 'title' }, 'aggregate'],
    ['DELETE', todo, { title: 'x' }, 'removeMany'],
  ])('%s %s passes a well-formed body to %s', async (method, url, payload, called) => {
    calls.length = 0;
    const response = await app.inject({ method, url, payload } as InjectOptions);
    expect(response.statusCode).toBeLessThan(300);
    expect(calls.map((call) => call.method)).toEqual([called]);
    expect(calls[0]?.args).toContainEqual(payload);
  });

  it.each([
    ['POST', todo, [{ title: 'x' }], 422],
    ['POST', todo, 'text', 422],
    ['PUT', `${todo}/r1`, [1], 422],
    ['POST', `${todo}/bulk`, { title: 'x' }, 400],
    ['PUT', `${todo}/bulk`, {}, 400],
    ['PATCH', `${todo}/update-many`, [], 400],
    ['PATCH', `${todo}/update-many`, { data: {} }, 400],
    ['POST', `${todo}/upsert`, { key: 'title', records: 'x' }, 400],
    ['POST', `${todo}/upsert`, { key: 5, records: [] }, 400],
    ['POST', `${todo}/aggregate`, [1], 400],
    ['DELETE', todo, [1], 400],
    ['DELETE', todo, undefined, 400],
  ])('%s %s refuses %j with %i before the service', async (method, url, payload, status) => {
    calls.length = 0;
    const body =
      typeof payload === 'string' ? { payload, headers: { 'content-type': 'text/plain' } } : { payload };
    const response = await app.inject({ method, url, ...body } as InjectOptions);
    expect(response.statusCode).toBe(status);
    expect(typeof response.json().message).toBe('string');
    expect(calls).toEqual([]);
  });
});
