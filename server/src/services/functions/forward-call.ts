// One call sent to the function process serving it, over that process's socket, with its deadline: past
// the deadline the process is retired (killed once the calls on it end); a broken connection that is not
// the caller's body failing leaves the process suspect, so it is retired at once and the call is a crash.
import { request as httpRequest, type ClientRequest } from 'node:http';
import { InvalidInputError } from '../../lib/errors';
import { answerHeaders } from './call-headers';
import { callStatusOf, FunctionCrashError, FunctionTimeoutError } from './function-errors';
import type { Lease } from './function-pool';
import type { FunctionAnswer, FunctionCall, FunctionsLog } from './functions-types';

/** CRASH_GRACE_MS is how long a process whose connection broke may take to end (and say why) before SIGKILL. */
const CRASH_GRACE_MS = 250;

/** ForwardedCall is one call ready to send: its process, headers and deadline. */
export interface ForwardedCall {
  name: string;
  call: FunctionCall;
  lease: Lease;
  headers: Record<string, string | string[]>;
  timeoutMs: number;
  /** started is when the call began (Date.now()), for the log line. */
  started: number;
  log: FunctionsLog;
  /**
   * ended runs once, when the call is over: its answer's body closed, or the call failed (the status it is
   * logged with). It releases what the call holds.
   */
  ended: (status: number) => void;
}

/** forwardCall sends the call and resolves with the function's answer (its body still streaming). */
export function forwardCall(forwarded: ForwardedCall): Promise<FunctionAnswer> {
  const { name, call, lease, log, started, timeoutMs } = forwarded;
  return new Promise<FunctionAnswer>((resolve, reject) => {
    let settled = false;
    // Set once the request exists; fail() may run before that (a request node:http refuses).
    let timer: NodeJS.Timeout | undefined = undefined;
    const end = (status: number) => {
      clearTimeout(timer);
      forwarded.ended(status);
    };
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      end(callStatusOf(error));
      reject(error);
    };
    let outgoing: ClientRequest;
    try {
      outgoing = httpRequest(
        {
          socketPath: lease.process.socketPath,
          agent: lease.process.agent,
          method: call.method,
          path: call.path,
          headers: forwarded.headers,
        },
        (response) => {
          if (settled) return response.destroy();
          settled = true;
          response.once('close', () => {
            end(response.statusCode ?? 502);
            log.info(
              {
                function: name,
                status: response.statusCode,
                ms: Date.now() - started,
                reqId: call.requestId,
              },
              'function call',
            );
          });
          resolve({ status: response.statusCode ?? 502, headers: answerHeaders(response), body: response });
        },
      );
    } catch (error) {
      // A path or header node:http refuses: the caller's input, refused before anything was sent.
      fail(new InvalidInputError(`The function call could not be sent: ${(error as Error).message}`));
      return;
    }
    timer = setTimeout(() => {
      log.warn({ function: name, timeoutMs }, 'function timed out: its process is retired');
      // This call ends now; the process takes no new call and is killed once the calls on it end (at
      // once when this was its only one), so a caller's timeout never cuts off another caller's call.
      lease.retire();
      outgoing.destroy();
      fail(
        new FunctionTimeoutError(`Function ${name} did not answer within ${Math.ceil(timeoutMs / 1000)} s`),
      );
    }, timeoutMs);
    let bodyError: Error | null = null;
    outgoing.once('error', () => {
      // Settled already: this call timed out (its request was destroyed above), nothing more to do.
      if (settled) return;
      // A body that broke (the caller went away, or it grew past the limit: 413) says nothing about the
      // process, which stays; any other break leaves it suspect, and the next call starts afresh.
      if (bodyError) return fail(bodyError);
      // Out of service now; a moment to print its uncaught error (the call's output) before SIGKILL.
      lease.process.retire(CRASH_GRACE_MS);
      void lease.process.exited.then((why) => log.warn({ function: name, why }, 'function process ended'));
      fail(new FunctionCrashError(`Function ${name} crashed`));
    });
    if (call.body) {
      call.body.once('error', (error) => {
        bodyError = error;
        outgoing.destroy(error);
      });
      call.body.pipe(outgoing);
    } else outgoing.end();
  });
}
