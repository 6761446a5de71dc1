// The CLI's one way into a running server: a call of its service-role API with SERVICE_TOKEN, its answer
// checked, and the one message for a token that server refuses.
import { z } from 'zod';
import { CLI_USER_AGENT } from '../lib/cli-user-agent';
import { formatIssues } from '../lib/validation';

/** AdminServer is a server running on this DATA_DIR and the service token the CLI calls it with. */
export interface AdminServer {
  url: string;
  serviceToken: string;
}

/** AdminRequest is one call: a path on the server (`/api/…`), an optional query and JSON body. */
export interface AdminRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** ErrorAnswerSchema is the body of an error answer (routes/error-map.ts), when it has one. */
const ErrorAnswerSchema = z.object({ message: z.string() });

/** refusedTokenMessage is what the CLI says when the server answers 401 or 403 to its service token. */
export function refusedTokenMessage(url: string): string {
  return (
    `The server at ${url} refused the service token: if it was started with SERVICE_TOKEN, run the CLI ` +
    'with the same SERVICE_TOKEN (and APP_ID).'
  );
}

/** adminPath is `/api/apps/{appId}/admin/{segments…}`, the operator API of routes/admin.ts. */
export function adminPath(appId: string, ...segments: string[]): string {
  return [`/api/apps/${encodeURIComponent(appId)}/admin`, ...segments.map(encodeURIComponent)].join('/');
}

/**
 * callAdminApi sends request to server with the service token and returns the answer as answer parses it.
 * A refused token, an error status and an answer of another shape each throw a message for the operator.
 */
export async function callAdminApi<S extends z.ZodType>(
  server: AdminServer,
  request: AdminRequest,
  answer: S,
): Promise<z.infer<S>> {
  const url = new URL(`${server.url}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  const hasBody = request.body !== undefined;
  const response = await fetch(url, {
    method: request.method,
    headers: {
      authorization: `Bearer ${server.serviceToken}`,
      'user-agent': CLI_USER_AGENT,
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
    },
    ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
  });
  // An answer that is not JSON (a proxy's error page) still has a status to report.
  const body: unknown = await response.json().catch(() => null);
  if (response.status === 401 || response.status === 403) throw new Error(refusedTokenMessage(server.url));
  if (!response.ok) {
    const error = ErrorAnswerSchema.safeParse(body);
    throw new Error(`${response.status}: ${error.success ? error.data.message : 'request failed'}`);
  }
  const parsed = answer.safeParse(body);
  if (!parsed.success) {
    throw new Error(
      `The server at ${server.url} answered ${request.method} ${request.path} with an unexpected body: ` +
        formatIssues(parsed.error),
    );
  }
  return parsed.data;
}

/** AnswerObjectSchema is an answer the CLI prints as it is: a JSON object (a user, the app's settings). */
export const AnswerObjectSchema = z.record(z.string(), z.unknown());
