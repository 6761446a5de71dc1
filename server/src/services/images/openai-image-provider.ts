import { UpstreamError } from '../../lib/errors';
import type { ImageProvider } from './image-provider';
import { decodeProviderBytes, parseProviderResponse } from './provider-response';

/** OpenAiImageProviderOptions configures a provider speaking the OpenAI images API. */
export interface OpenAiImageProviderOptions {
  endpoint: string;
  apiKey?: string | undefined;
  model: string;
  timeoutMs: number;
}

/** createOpenAiImageProvider returns a provider that POSTs to an OpenAI-compatible images endpoint. */
export function createOpenAiImageProvider(options: OpenAiImageProviderOptions): ImageProvider {
  return {
    id: `openai ${options.endpoint} ${options.model}`,
    async generate(prompt) {
      // One deadline covers the request and, for URL answers, the download.
      const signal = AbortSignal.timeout(options.timeoutMs);
      try {
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          accept: 'application/json',
        };
        if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
        const response = await fetch(options.endpoint, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            model: options.model,
            prompt,
            n: 1,
            size: '1024x1024',
            response_format: 'b64_json',
          }),
          signal,
        });
        if (!response.ok) throw new UpstreamError(`the provider answered HTTP ${response.status}`);
        let body: unknown;
        try {
          body = await response.json();
        } catch {
          throw new UpstreamError('the response is not JSON');
        }
        const result = parseProviderResponse(body);
        if (result.kind === 'bytes') return result.image;
        const download = await fetch(result.url, { signal });
        if (!download.ok) throw new UpstreamError(`the image download answered HTTP ${download.status}`);
        return decodeProviderBytes(Buffer.from(await download.arrayBuffer()));
      } catch (error) {
        throw toUpstreamError(error, options.timeoutMs);
      }
    },
  };
}

function toUpstreamError(error: unknown, timeoutMs: number): UpstreamError {
  if (error instanceof UpstreamError) return error;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new UpstreamError(`no answer within ${timeoutMs} ms`);
  }
  // NB: fetch errors name the host but never the headers, so the key cannot leak through them.
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return new UpstreamError(`could not reach the provider${cause}`);
}
