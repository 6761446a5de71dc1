// Running turns (run-turn.ts runs one): each starts in the background with its deadline, holds a lease on
// its conversation that this instance renews, and ends with a final message when the server closes. A turn
// whose process died (kill -9) is ended at the next start (one instance) or, once its lease ran out, by
// another instance's sweep: no conversation stays running.
import { TooManyRequestsError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import { conversationOf, newMessage, pushPayload, type AgentMessage } from './conversation-view';
import {
  INTERRUPTED_TEXT,
  runTurn,
  TurnClosed,
  TurnTimeout,
  type TurnInput,
  type TurnsDeps,
} from './run-turn';

export type { TurnInput, TurnLimits, TurnsDeps } from './run-turn';

/**
 * MAX_TURNS_PER_CALLER bounds the turns one user runs at once on this instance (each may wait for an LLM
 * slot: they must not pile up); MAX_TURNS bounds every caller's together, the service role's included.
 */
export const MAX_TURNS_PER_CALLER = 4;
export const MAX_TURNS = 500;

export interface AgentTurns {
  /** admit throws TooManyRequestsError (429) when caller, or this instance, runs as many turns as it may. */
  admit(caller: Caller): void;
  /** start runs a turn in the background (its lease is taken: startTurn). */
  start(input: TurnInput): void;
  /** running says how many turns run on this instance now. */
  running(): number;
  /** recoverAbandoned ends the turns whose process died (at start: every running one, on one instance). */
  recoverAbandoned(atStart: boolean): Promise<number>;
  /** close ends every running turn with its final message, and stops the lease timers. */
  close(): Promise<void>;
}

/** createAgentTurns runs turns and keeps their leases; see the file comment. */
export function createAgentTurns(deps: TurnsDeps): AgentTurns {
  const { store, limits, log } = deps;
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const perCaller = new Map<string, number>();
  const callerKey = (caller: Caller) => (caller.kind === 'user' ? caller.user.id : caller.kind);
  const lease = () => new Date(Date.now() + limits.leaseMs);
  const renewal = setInterval(
    () => {
      void store
        .renewLeases([...running.keys()], lease())
        .catch((error: unknown) => log.warn({ err: error }, 'agent turn lease renewal failed'));
    },
    Math.max(1_000, Math.floor(limits.leaseMs / 3)),
  );
  renewal.unref();
  const sweep = deps.sharedDatabase
    ? setInterval(() => void recoverAbandoned(false).catch(() => undefined), limits.leaseMs)
    : null;
  sweep?.unref();

  async function recoverAbandoned(atStart: boolean): Promise<number> {
    const claimed = await store.claimAbandoned(new Date(), lease(), 100, atStart && !deps.sharedDatabase);
    for (const conversation of claimed) {
      if (running.has(conversation.id)) continue;
      try {
        const messages = (await store.messages(conversation.id)) as AgentMessage[];
        // The final message first, then the unfinished ones marked: none of them is ever last and done.
        const final = newMessage('assistant', INTERRUPTED_TEXT, { kind: 'service' }, { status: 'error' });
        await store.append(conversation.id, final);
        for (const message of messages) {
          if (message.status !== 'running') continue;
          message.status = 'error';
          for (const call of message.tool_calls) if (call.status === 'running') call.status = 'stopped';
          await store.save(conversation.id, message);
        }
        messages.push(final);
        deps.publish({
          appId: conversation.app_id,
          conversationId: conversation.id,
          ownerId: conversation.created_by_id,
          data: JSON.stringify(pushPayload(conversationOf(conversation, messages), final)),
        });
        await store.endTurn(conversation.id);
      } catch (error) {
        log.error({ err: error, conversation: conversation.id }, 'ending an abandoned agent turn failed');
      }
    }
    return claimed.length;
  }

  return {
    admit(caller) {
      if (running.size >= MAX_TURNS) {
        throw new TooManyRequestsError(
          'This server runs as many agent turns as it may: try again in a moment',
          5,
        );
      }
      if (caller.kind === 'user' && (perCaller.get(callerKey(caller)) ?? 0) >= MAX_TURNS_PER_CALLER) {
        throw new TooManyRequestsError(
          `You already have ${MAX_TURNS_PER_CALLER} agent turns running: wait for one to end`,
          2,
        );
      }
    },
    start(input) {
      const key = callerKey(input.caller);
      perCaller.set(key, (perCaller.get(key) ?? 0) + 1);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new TurnTimeout()), limits.turnTimeoutMs);
      const done = runTurn(deps, input, controller.signal).finally(() => {
        clearTimeout(timer);
        running.delete(input.conversation.id);
        const left = (perCaller.get(key) ?? 1) - 1;
        if (left > 0) perCaller.set(key, left);
        else perCaller.delete(key);
      });
      running.set(input.conversation.id, { controller, done });
    },
    running: () => running.size,
    recoverAbandoned,
    async close() {
      clearInterval(renewal);
      if (sweep) clearInterval(sweep);
      const turns = [...running.values()];
      for (const turn of turns) turn.controller.abort(new TurnClosed());
      await Promise.all(turns.map((turn) => turn.done));
    },
  };
}
