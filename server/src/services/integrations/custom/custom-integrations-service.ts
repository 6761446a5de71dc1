// `integrations.custom.call(slug, operationId, params)`: the project's operation found, its parameters
// checked, the call proxied upstream through the guarded fetch (public addresses only unless
// OUTBOUND_PRIVATE_HOSTS trusts one; size cap; deadline) with the auth header filled from a secret.
import {
  NotConfiguredError,
  NotFoundError,
  OutboundLimitError,
  OutboundRefusedError,
  UpstreamError,
} from '../../../lib/errors';
import type { PublicFetch } from '../../../lib/public-fetch';
import type { CustomCallInput } from '../../../schemas/custom-integrations';
import type { SecretsService } from '../../secrets/secrets-service';
import { buildUpstreamRequest } from './custom-call-request';
import type { CustomIntegration } from '../../../project/integration-loader';
import { findOperation, type CustomOperation } from '../../../project/openapi-operations';

/** MAX_ANSWER_BYTES caps an upstream answer (more is an upstream failure, 502). */
export const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

/** CustomCallResult is what the SDK's `custom.call` resolves to. */
export interface CustomCallResult {
  success: boolean;
  status_code: number;
  data: unknown;
}

/** FoundOperation is an integration and one of its operations. */
export interface FoundOperation {
  integration: CustomIntegration;
  operation: CustomOperation;
}

/** CustomIntegrationsDeps are the loaded integrations and what a call needs. */
export interface CustomIntegrationsDeps {
  integrations: ReadonlyMap<string, CustomIntegration>;
  secrets: Pick<SecretsService, 'get'>;
  fetchPublic: PublicFetch;
  /** fallbackSecret reads `INTEGRATION_SECRET_<NAME>` when the secrets store has no NAME. */
  fallbackSecret?: (name: string) => string | undefined;
}

/** CustomIntegrations are the project's custom integrations: find an operation, call it upstream. */
export interface CustomIntegrations {
  /** count is how many integrations the project declares (for the start-up report). */
  count: number;
  /** find returns the integration and operation a call names, or throws NotFoundError. */
  find(slug: string, operationId: string): FoundOperation;
  /** call checks input against the operation and proxies it; see the file comment for the answers. */
  call(appId: string, found: FoundOperation, input: CustomCallInput): Promise<CustomCallResult>;
}

function dataOf(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) return null;
  const text = body.toString('utf8');
  if (contentType && /[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** createCustomIntegrations returns find (404s) and call (the proxied request). */
export function createCustomIntegrations(deps: CustomIntegrationsDeps): CustomIntegrations {
  async function authHeader(appId: string, integration: CustomIntegration): Promise<Record<string, string>> {
    const auth = integration.auth;
    if (!auth) return {};
    const value = (await deps.secrets.get(appId, auth.secret)) ?? deps.fallbackSecret?.(auth.secret);
    if (value === undefined || value === '') {
      throw new NotConfiguredError(
        `Custom integration ${integration.slug} needs the secret ${auth.secret}: set it with \`npm run cli -- secrets set ${auth.secret}\``,
      );
    }
    return { [auth.header.toLowerCase()]: `${auth.prefix}${value}` };
  }

  return {
    /** count is how many integrations the project declares (for the start-up report). */
    count: deps.integrations.size,
    /** find returns the integration and operation a call names, or throws NotFoundError. */
    find(slug: string, operationId: string): FoundOperation {
      const integration = deps.integrations.get(slug);
      if (!integration) throw new NotFoundError(`Custom integration "${slug.slice(0, 100)}" not found`);
      const operation = findOperation(integration.operations, operationId);
      if (!operation) {
        throw new NotFoundError(
          `Custom integration ${slug} has no operation "${operationId.slice(0, 200)}" (name it method:/path as in its OpenAPI document, or by operationId)`,
        );
      }
      return { integration, operation };
    },
    /** call checks input against the operation and proxies it; see the file comment for the answers. */
    async call(appId: string, found: FoundOperation, input: CustomCallInput): Promise<CustomCallResult> {
      const { integration, operation } = found;
      const request = buildUpstreamRequest(integration.baseUrl, operation, input);
      const headers = { ...request.headers, ...(await authHeader(appId, integration)) };
      let response;
      try {
        response = await deps.fetchPublic({
          url: request.url,
          method: request.method,
          headers,
          ...(request.body !== undefined ? { body: request.body } : {}),
          maxBytes: MAX_ANSWER_BYTES,
          timeoutMs: integration.timeoutMs,
          ...(integration.auth ? { credentialHeaders: [integration.auth.header] } : {}),
        });
      } catch (error) {
        if (error instanceof OutboundLimitError && error.reason === 'timeout') {
          throw new OutboundLimitError(
            `Custom integration ${integration.slug} did not answer within ${integration.timeoutMs} ms`,
            'timeout',
          );
        }
        if (error instanceof OutboundLimitError) {
          throw new UpstreamError(`Custom integration ${integration.slug} answered more than 5 MB`);
        }
        // A refused address (OutboundRefusedError) keeps its own answer; anything else is the network.
        if (error instanceof OutboundRefusedError) throw error;
        const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
        throw new UpstreamError(
          `Custom integration ${integration.slug} could not be reached${code ? ` (${code})` : ''}`,
        );
      }
      if (response.status >= 500) {
        throw new UpstreamError(
          `Custom integration ${integration.slug} failed: upstream answered ${response.status}`,
        );
      }
      const contentType = response.headers['content-type'];
      return {
        success: response.status >= 200 && response.status < 300,
        status_code: response.status,
        data: dataOf(response.body, Array.isArray(contentType) ? contentType[0] : contentType),
      };
    },
  };
}
