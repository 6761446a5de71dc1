// Pass-through calls to the provider, for the AI gateway: the caller's OpenAI request body (its model already
// mapped) with our key and none of the caller's headers, one deadline for the whole exchange (the answer's
// body included, so a stream cannot outlive LLM_TIMEOUT_MS), and an answer bounded in bytes. Failures are
// told as llm-provider.ts tells them: a safe message; the provider's own text, key scrubbed, to the log.
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { OutboundLimitError, UpstreamError } from '../../lib/errors';

/** ForwardedAnswer is a provider's 2xx answer: its type and its body, bounded in bytes and time. */
export interface ForwardedAnswer {
  contentType: string;
  /** body yields the answer's bytes; it throws past the byte bound, the deadline or a broken connection. */
  body: AsyncIterable<Buffer>;
  /** cancel drops an answer that will not be read (its connection is closed). */
  cancel(): void;
}

/** ForwardingProvider is the provider as the AI gateway uses it. */
export interface ForwardingProvider {
  /** forward POSTs body to path (GET without one); signal is the caller going away. */
  forward(path: string, body: string | undefined, signal?: AbortSignal): Promise<ForwardedAnswer>;
}

/** ForwardTarget is the provider client's own connection, key and limits (llm-provider.ts). */
export interface ForwardTarget {
  baseUrl: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  maxAnswerBytes: number;
  agent: Agent;
  send: (url: string, options: RequestOptions, answer: (incoming: IncomingMessage) => void) => ClientRequest;
  scrub: (text: string) => string;
  onFailure?: ((detail: { status?: number; message: string }) => void) | undefined;
}

/** FAILURE_TEXT_BYTES is how much of a failed answer is read, for the log. */
const FAILURE_TEXT_BYTES = 4096;

/** failureOf turns what broke the exchange into the safe error the caller is told. */
function failureOf(
  target: ForwardTarget,
  error: unknown,
  signals: { deadline: AbortSignal; caller: AbortSignal | undefined },
  what: string,
): Error {
  if (error instanceof UpstreamError) return error;
  // The caller went away: nobody is told, and it is not the provider's failure.
  if (signals.caller?.aborted) return new UpstreamError('The call was cancelled');
  if (signals.deadline.aborted) {
    return new OutboundLimitError(
      `The LLM provider did not answer within ${target.timeoutMs} ms (LLM_TIMEOUT_MS)`,
      'timeout',
    );
  }
  const cause = error instanceof Error ? error.message : String(error);
  target.onFailure?.({ message: target.scrub(`${what}: ${cause}`) });
  return new UpstreamError(
    what === 'unreachable' ? 'The LLM provider could not be reached' : "The LLM provider's answer broke off",
  );
}

async function* bounded(
  target: ForwardTarget,
  incoming: IncomingMessage,
  signals: { deadline: AbortSignal; caller: AbortSignal | undefined },
): AsyncGenerator<Buffer> {
  let bytes = 0;
  try {
    for await (const chunk of incoming as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > target.maxAnswerBytes) {
        throw new UpstreamError(
          `The LLM provider's answer is larger than ${target.maxAnswerBytes / 1024 / 1024} MB`,
        );
      }
      yield chunk;
    }
  } catch (error) {
    throw failureOf(target, error, signals, 'broke off');
  } finally {
    // Stopped early (too large, or the caller went away): the provider stops spending too.
    if (!incoming.complete) incoming.destroy();
  }
}

/** startOf reads up to max bytes of a failed answer, for the log. */
async function startOf(incoming: IncomingMessage, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    bytes += chunk.length;
    if (bytes >= max) break;
  }
  incoming.destroy();
  return Buffer.concat(chunks).toString('utf8').slice(0, max);
}

/** forwardTo makes one pass-through call on target; only a 2xx answer is handed back. */
export async function forwardTo(
  target: ForwardTarget,
  path: string,
  body: string | undefined,
  signal?: AbortSignal,
): Promise<ForwardedAnswer> {
  const deadline = AbortSignal.timeout(target.timeoutMs);
  const signals = { deadline, caller: signal };
  const headers: Record<string, string | number> = { accept: 'application/json, text/event-stream' };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  let incoming: IncomingMessage;
  try {
    incoming = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = target.send(
        `${target.baseUrl}${path}`,
        {
          method: body === undefined ? 'GET' : 'POST',
          agent: target.agent,
          signal: signal ? AbortSignal.any([deadline, signal]) : deadline,
          headers,
        },
        resolve,
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  } catch (error) {
    throw failureOf(target, error, signals, 'unreachable');
  }
  const status = incoming.statusCode ?? 0;
  if (status < 200 || status > 299) {
    const text = await startOf(incoming, FAILURE_TEXT_BYTES).catch(() => '');
    target.onFailure?.({ status, message: target.scrub(text) });
    throw new UpstreamError(`The LLM provider failed (HTTP ${status})`);
  }
  return {
    contentType: String(incoming.headers['content-type'] ?? ''),
    body: bounded(target, incoming, signals),
    cancel: () => {
      if (!incoming.complete) incoming.destroy();
    },
  };
}
