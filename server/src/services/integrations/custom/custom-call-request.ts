// A custom integration call's parameters checked against the operation's declaration, and the upstream
// request built from them: every path parameter filled (encoded), required ones present, types right,
// nothing undeclared sent (a caller cannot add a header or a query the document does not name).
import { InvalidInputError } from '../../../lib/errors';
import type { CustomCallInput } from '../../../schemas/custom-integrations';
import type { CustomOperation, OperationParam } from '../../../project/openapi-operations';

/** UpstreamRequest is what is sent upstream, before the auth header is added. */
export interface UpstreamRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** MAX_PAYLOAD_BYTES bounds the JSON body sent upstream. */
export const MAX_PAYLOAD_BYTES = 512 * 1024;

// Headers the server sets (or that would confuse the exchange), whatever a document declares.
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'proxy-authorization',
  'cookie',
]);

type Scalar = string | number | boolean;

function scalarMatches(type: OperationParam['type'], value: Scalar): boolean {
  if (type === 'any' || type === 'string') return true;
  if (type === 'boolean') return typeof value === 'boolean' || value === 'true' || value === 'false';
  const number = typeof value === 'number' ? value : value === '' ? NaN : Number(value);
  if (typeof value === 'boolean' || !Number.isFinite(number)) return false;
  return type === 'number' || Number.isInteger(number);
}

function checkValue(param: OperationParam, value: Scalar | Scalar[], where: string): string[] {
  const values = Array.isArray(value) ? value : [value];
  if (Array.isArray(value) && param.type !== 'array' && param.type !== 'any') {
    throw new InvalidInputError(`${where}.${param.name}: must be a single ${param.type}, not a list`);
  }
  const itemType = param.type === 'array' ? 'any' : param.type;
  for (const item of values) {
    if (!scalarMatches(itemType, item)) {
      throw new InvalidInputError(
        `${where}.${param.name}: must be ${itemType === 'integer' ? 'an' : 'a'} ${itemType}`,
      );
    }
    if (param.enum && !param.enum.some((allowed) => String(allowed) === String(item))) {
      const allowed = param.enum.slice(0, 10).map((entry) => JSON.stringify(entry));
      throw new InvalidInputError(`${where}.${param.name}: must be one of ${allowed.join(', ')}`);
    }
  }
  return values.map(String);
}

/** pick checks one group of the call against the operation's parameters in that place. */
function pick<V extends Scalar | Scalar[]>(
  operation: CustomOperation,
  place: OperationParam['in'],
  given: Record<string, V> | undefined,
  where: string,
): Map<string, string[]> {
  const declared = operation.params.filter((param) => param.in === place);
  const supplied = given ?? {};
  const unknown = Object.keys(supplied).find(
    (name) =>
      !declared.some((param) =>
        place === 'header' ? param.name.toLowerCase() === name.toLowerCase() : param.name === name,
      ),
  );
  if (unknown !== undefined) {
    const names = declared.map((param) => param.name).slice(0, 20);
    throw new InvalidInputError(
      `${where}.${unknown.slice(0, 100)}: operation ${operation.id} declares no such ${place} parameter${names.length ? ` (it declares ${names.join(', ')})` : ''}`,
    );
  }
  const values = new Map<string, string[]>();
  for (const param of declared) {
    const key = Object.keys(supplied).find((name) =>
      place === 'header' ? name.toLowerCase() === param.name.toLowerCase() : name === param.name,
    );
    const value = key === undefined ? undefined : supplied[key];
    if (value === undefined) {
      if (param.required)
        throw new InvalidInputError(`${where}.${param.name}: is required by ${operation.id}`);
      continue;
    }
    values.set(param.name, checkValue(param, value, where));
  }
  return values;
}

/**
 * pathSegment refuses values that are not one plain segment once encoded: empty, `.` and `..` (URL parsing
 * would drop or resolve them, reaching another path of the API).
 */
function pathSegment(name: string, value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new InvalidInputError(
      `path_params.${name}: must not be empty, "." or ".." (it fills one segment of the path)`,
    );
  }
  return value;
}

/** buildUpstreamRequest checks input against operation and returns the request for baseUrl. */
export function buildUpstreamRequest(
  baseUrl: string,
  operation: CustomOperation,
  input: CustomCallInput,
): UpstreamRequest {
  if (operation.params.some((param) => param.in === 'cookie' && param.required)) {
    throw new InvalidInputError(
      `Operation ${operation.id} needs a cookie parameter, which this server does not send`,
    );
  }
  const path = pick(operation, 'path', input.path_params, 'path_params');
  const query = pick(operation, 'query', input.query_params, 'query_params');
  const headers = pick(operation, 'header', input.headers, 'headers');

  const filledPath = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    encodeURIComponent(pathSegment(name, path.get(name)?.[0] ?? '')),
  );
  const expected = `${baseUrl.replace(/\/+$/, '')}${filledPath}`;
  const url = new URL(expected);
  // URL parsing resolves dot segments and re-encodes: the path sent must be the one the template built,
  // under the base path, or a parameter could reach another endpoint.
  if (url.pathname !== new URL(baseUrl).pathname.replace(/\/+$/, '') + filledPath) {
    throw new InvalidInputError(
      `path_params: the values would leave the path ${operation.path} of ${operation.id}; send plain segment values`,
    );
  }
  for (const [name, values] of query) for (const value of values) url.searchParams.append(name, value);

  const out: Record<string, string> = { accept: 'application/json, */*;q=0.5' };
  for (const [name, values] of headers) {
    if (FORBIDDEN_HEADERS.has(name.toLowerCase())) continue;
    const value = values.join(', ');
    if (/[\r\n\0]/.test(value)) throw new InvalidInputError(`headers.${name}: must not hold line breaks`);
    out[name.toLowerCase()] = value;
  }

  const request: UpstreamRequest = { url: url.toString(), method: operation.method, headers: out };
  if (input.payload === undefined) {
    if (operation.body === 'required') throw new InvalidInputError(`payload: is required by ${operation.id}`);
    return request;
  }
  if (operation.body === 'none') {
    throw new InvalidInputError(`payload: operation ${operation.id} declares no request body`);
  }
  const body = JSON.stringify(input.payload);
  if (Buffer.byteLength(body) > MAX_PAYLOAD_BYTES) {
    throw new InvalidInputError(`payload: is larger than ${MAX_PAYLOAD_BYTES / 1024} KiB`);
  }
  out['content-type'] = 'application/json';
  return { ...request, body };
}
