// The operations of an OpenAPI 3 document, as custom integration calls name them: `method:/path` (what the
// SDK sends, e.g. `get:/repos/{owner}/{repo}`) or the operation's declared `operationId`.
import {
  HTTP_METHODS,
  OpenApiParameterObjectSchema,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../schemas/custom-integrations';

/** ParamType is the JSON type a parameter's schema declares (unknown or absent: any scalar). */
export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'any';

/** OperationParam is one declared parameter of an operation. */
export interface OperationParam {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  type: ParamType;
  enum?: unknown[] | undefined;
}

/** CustomOperation is one callable operation. */
export interface CustomOperation {
  /** id is `method:/path`, lower-case method, the path as the document writes it. */
  id: string;
  operationId?: string | undefined;
  method: string;
  path: string;
  params: OperationParam[];
  /** body says whether the operation takes a JSON body: not at all, optionally, or always. */
  body: 'none' | 'optional' | 'required';
}

/** OpenApiError says why a document's operations cannot be read; the loader names the file. */
export class OpenApiError extends Error {
  override name = 'OpenApiError';
}

const PARAMETER_REF = /^#\/components\/parameters\/([^/]+)$/;

function typeOf(schema: { type?: string | string[] | undefined } | undefined): ParamType {
  const declared = Array.isArray(schema?.type) ? schema.type.find((type) => type !== 'null') : schema?.type;
  return declared === 'string' ||
    declared === 'integer' ||
    declared === 'number' ||
    declared === 'boolean' ||
    declared === 'array'
    ? declared
    : 'any';
}

function resolveParam(raw: unknown, document: OpenApiDocument, where: string): OperationParam {
  let value = raw;
  const ref = (raw as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const name = PARAMETER_REF.exec(ref)?.[1];
    value = name === undefined ? undefined : document.components?.parameters?.[name];
    if (value === undefined) throw new OpenApiError(`${where}: cannot resolve parameter ${ref}`);
  }
  const parsed = OpenApiParameterObjectSchema.safeParse(value);
  if (!parsed.success) {
    throw new OpenApiError(`${where}: a parameter needs a name and "in" (path, query, header or cookie)`);
  }
  const param = parsed.data;
  return {
    name: param.name,
    in: param.in,
    // Path parameters are always required (OpenAPI 3).
    required: param.in === 'path' || param.required === true,
    type: typeOf(param.schema),
    ...(param.schema?.enum ? { enum: param.schema.enum } : {}),
  };
}

function bodyOf(operation: OpenApiOperation): CustomOperation['body'] {
  if (!operation.requestBody) return 'none';
  return operation.requestBody.required ? 'required' : 'optional';
}

/**
 * operationsOf lists every operation of document by id and by operationId (both point at the same one).
 * Operation-level parameters override path-level ones of the same name and place.
 */
export function operationsOf(document: OpenApiDocument): Map<string, CustomOperation> {
  const operations = new Map<string, CustomOperation>();
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = (item.parameters ?? []).map((raw) => resolveParam(raw, document, `paths.${path}`));
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (!operation) continue;
      const where = `paths.${path}.${method}`;
      const own = (operation.parameters ?? []).map((raw) => resolveParam(raw, document, where));
      const params = [
        ...shared.filter((param) => !own.some((mine) => mine.name === param.name && mine.in === param.in)),
        ...own,
      ];
      const missing = [...path.matchAll(/\{([^}]+)\}/g)]
        .map((match) => match[1] ?? '')
        .find((name) => !params.some((param) => param.in === 'path' && param.name === name));
      if (missing !== undefined) {
        throw new OpenApiError(`${where}: path parameter {${missing}} is not declared in "parameters"`);
      }
      const found: CustomOperation = {
        id: `${method}:${path}`,
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        params,
        body: bodyOf(operation),
      };
      operations.set(found.id, found);
      if (operation.operationId !== undefined) {
        if (operations.has(operation.operationId)) {
          throw new OpenApiError(`${where}: operationId "${operation.operationId}" is used twice`);
        }
        operations.set(operation.operationId, found);
      }
    }
  }
  return operations;
}

/** findOperation returns the operation an SDK call names (`GET:/x` matches `get:/x` too), or undefined. */
export function findOperation(
  operations: ReadonlyMap<string, CustomOperation>,
  requested: string,
): CustomOperation | undefined {
  const exact = operations.get(requested);
  if (exact) return exact;
  const colon = requested.indexOf(':');
  if (colon <= 0) return undefined;
  return operations.get(`${requested.slice(0, colon).toLowerCase()}${requested.slice(colon)}`);
}
