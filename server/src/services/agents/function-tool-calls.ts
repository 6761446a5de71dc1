// Function tools call the app's backend function as an HTTP call from the caller would: a JSON POST with
// the caller's own Authorization (and on-behalf-of), so the function sees the same user; its answer is
// read up to a bound and the rest dropped.
import { Readable } from 'node:stream';
import type { FunctionsService } from '../functions/functions-service';
import { MAX_RESULT_CHARS, type FunctionCaller } from './agent-tools';

/** MAX_ANSWER_BYTES bounds what is read of a function's answer (the model gets MAX_RESULT_CHARS of it). */
const MAX_ANSWER_BYTES = MAX_RESULT_CHARS * 4;

/** functionToolCaller calls functions of service for agents' function tools. */
export function functionToolCaller(service: Pick<FunctionsService, 'find' | 'invoke'>): FunctionCaller {
  return async (name, body, { caller, headers, signal }) => {
    const found = service.find(name);
    if (!found || found.rest !== '') return { status: 404, text: `Function ${name} not found` };
    const callHeaders: Record<string, string> = { 'content-type': 'application/json' };
    if (headers.authorization) callHeaders.authorization = headers.authorization;
    if (headers['on-behalf-of']) callHeaders['on-behalf-of'] = headers['on-behalf-of'];
    const answer = await service.invoke(found.def, {
      method: 'POST',
      path: '/',
      headers: callHeaders,
      // The function log keeps the user the agent acts for (the console filters calls by user).
      userId: caller.kind === 'user' ? caller.user.id : null,
      body: Readable.from([Buffer.from(JSON.stringify(body))]),
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    try {
      for await (const chunk of answer.body) {
        if (signal.aborted) break;
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
        chunks.push(buffer);
        bytes += buffer.length;
        if (bytes >= MAX_ANSWER_BYTES) break;
      }
    } finally {
      answer.body.destroy();
    }
    return { status: answer.status, text: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES) };
  };
}
