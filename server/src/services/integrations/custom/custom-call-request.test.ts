// OpenAPI operations as custom integration calls name them, and a call's parameters checked against them.
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../lib/errors';
import { OpenApiDocumentSchema } from '../../../schemas/custom-integrations';
import { buildUpstreamRequest } from './custom-call-request';
import {
  findOperation,
  OpenApiError,
  operationsOf,
  type CustomOperation,
} from '../../../project/openapi-operations';

const document = OpenApiDocumentSchema.parse({
  openapi: '3.0.3',
  components: {
    parameters: { PerPage: { name: 'per_page', in: 'query', schema: { type: 'integer' } } },
  },
  paths: {
    '/repos/{owner}/{repo}': {
      parameters: [
        { name: 'owner', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'repo', in: 'path', required: true, schema: { type: 'string' } },
      ],
      get: { operationId: 'getRepo' },
      patch: { requestBody: { required: true, content: { 'application/json': {} } } },
    },
    '/search': {
      get: {
        parameters: [
          { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
          { $ref: '#/components/parameters/PerPage' },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: ['stars', 'forks'] } },
          { name: 'tags', in: 'query', schema: { type: 'array' } },
          { name: 'exact', in: 'query', schema: { type: 'boolean' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
      },
    },
  },
});
const operations = operationsOf(document);
const op = (id: string) => findOperation(operations, id) as CustomOperation;
const base = 'https://api.example.com/v1/';

describe('operationsOf / findOperation', () => {
  it('finds an operation by method:/path (as the SDK sends it, any method case) and by operationId', () => {
    expect(op('get:/repos/{owner}/{repo}').id).toBe('get:/repos/{owner}/{repo}');
    expect(op('GET:/repos/{owner}/{repo}').method).toBe('GET');
    expect(op('getRepo').id).toBe('get:/repos/{owner}/{repo}');
    expect(findOperation(operations, 'post:/repos/{owner}/{repo}')).toBeUndefined();
    expect(findOperation(operations, 'get:/repos')).toBeUndefined();
    expect(findOperation(operations, 'nonexistent-operation')).toBeUndefined();
  });

  it('merges path-level parameters and resolves $ref parameters', () => {
    expect(op('patch:/repos/{owner}/{repo}').params.map((param) => param.name)).toEqual(['owner', 'repo']);
    expect(op('get:/search').params.find((param) => param.name === 'per_page')?.type).toBe('integer');
  });

  it('refuses a document whose path names an undeclared parameter, or an unresolvable $ref', () => {
    const bad = OpenApiDocumentSchema.parse({ openapi: '3.1.0', paths: { '/x/{id}': { get: {} } } });
    expect(() => operationsOf(bad)).toThrow(OpenApiError);
    const badRef = OpenApiDocumentSchema.parse({
      openapi: '3.1.0',
      paths: { '/x': { get: { parameters: [{ $ref: '#/components/parameters/Nope' }] } } },
    });
    expect(() => operationsOf(badRef)).toThrow(/cannot resolve parameter/);
  });
});

describe('buildUpstreamRequest', () => {
  it.each(['..', '.', ''])('refuses the path parameter %j (it would leave the template)', (value) => {
    expect(() =>
      buildUpstreamRequest(base, op('get:/repos/{owner}/{repo}'), {
        path_params: { owner: 'o', repo: value },
      }),
    ).toThrow(/path_params\.repo: must not be empty/);
  });

  it('fills path parameters encoded, under the base URL path', () => {
    const request = buildUpstreamRequest(base, op('get:/repos/{owner}/{repo}'), {
      path_params: { owner: 'oct o', repo: '../x?y' },
    });
    expect(request.url).toBe('https://api.example.com/v1/repos/oct%20o/..%2Fx%3Fy');
    expect(request.method).toBe('GET');
    expect(request.body).toBeUndefined();
  });

  it('adds query parameters (lists repeated) and declared headers', () => {
    const request = buildUpstreamRequest(base, op('get:/search'), {
      query_params: { q: 'queen', per_page: 10, tags: ['a', 'b'], exact: true, sort: 'stars' },
      headers: { 'x-trace': 't-1' },
    });
    expect(request.url).toBe(
      'https://api.example.com/v1/search?q=queen&per_page=10&sort=stars&tags=a&tags=b&exact=true',
    );
    expect(request.headers['x-trace']).toBe('t-1');
  });

  it('sends the payload as JSON when the operation takes a body', () => {
    const request = buildUpstreamRequest(base, op('patch:/repos/{owner}/{repo}'), {
      path_params: { owner: 'o', repo: 'r' },
      payload: { name: 'new' },
    });
    expect(request.body).toBe('{"name":"new"}');
    expect(request.headers['content-type']).toBe('application/json');
  });

  it.each([
    [
      'a missing path parameter',
      'get:/repos/{owner}/{repo}',
      { path_params: { owner: 'o' } },
      /path_params\.repo: is required/,
    ],
    ['a missing required query', 'get:/search', {}, /query_params\.q: is required/],
    [
      'a wrong type',
      'get:/search',
      { query_params: { q: 'x', per_page: 'ten' } },
      /per_page: must be an integer/,
    ],
    [
      'a fraction for an integer',
      'get:/search',
      { query_params: { q: 'x', per_page: 1.5 } },
      /must be an integer/,
    ],
    [
      'a value outside the enum',
      'get:/search',
      { query_params: { q: 'x', sort: 'name' } },
      /sort: must be one of/,
    ],
    ['a list for a scalar', 'get:/search', { query_params: { q: ['a', 'b'] } }, /q: must be a single string/],
    ['a bad boolean', 'get:/search', { query_params: { q: 'x', exact: 'yes' } }, /exact: must be a boolean/],
    [
      'an undeclared query',
      'get:/search',
      { query_params: { q: 'x', admin: '1' } },
      /admin: operation get:\/search declares no such query/,
    ],
    [
      'an undeclared header',
      'get:/search',
      { query_params: { q: 'x' }, headers: { Authorization: 'x' } },
      /headers\.Authorization/,
    ],
    [
      'a missing required body',
      'patch:/repos/{owner}/{repo}',
      { path_params: { owner: 'o', repo: 'r' } },
      /payload: is required/,
    ],
    [
      'a body where none is declared',
      'get:/search',
      { query_params: { q: 'x' }, payload: {} },
      /declares no request body/,
    ],
    [
      'a header with a line break',
      'get:/search',
      { query_params: { q: 'x' }, headers: { 'X-Trace': 'a\r\nb' } },
      /line breaks/,
    ],
  ])('refuses %s with a 400 naming the parameter', (_case, id, input, message) => {
    expect(() => buildUpstreamRequest(base, op(id), input)).toThrow(InvalidInputError);
    expect(() => buildUpstreamRequest(base, op(id), input)).toThrow(message);
  });
});
