// One turn, step by step (agent-turns.ts starts it and holds its lease): the user's message is pushed
// first, then each step streams one assistant message from the model, pushed as it grows (throttled) and
// stored every SAVE_INTERVAL_MS, and runs the tools it asked for as the caller, each call pushed `running`
// → `success` | `error`. The turn ends with a final assistant message, `success` or `error`, whatever
// happens.
import {
  NotConfiguredError,
  OutboundLimitError,
  TooManyRequestsError,
  UpstreamError,
} from '../../lib/errors';
import type { AgentDef, AgentSkill } from '../../project/agent-loader';
import type { Caller } from '../../rules/caller';
import type { AgentConversationsStore, ConversationRow } from '../../store/agent-conversations-store';
import type { LlmService } from '../llm/llm-service';
import type { AgentPush } from './agent-pushes';
import type { AgentToolbox, CallHeaders } from './agent-tools';
import { conversationOf, newMessage, pushPayload, type AgentMessage } from './conversation-view';
import { modelContext, systemPrompt } from './model-context';
import { throttled } from './throttled';

/** PUSH_INTERVAL_MS is the most often a streaming message is pushed (the first text goes at once). */
export const PUSH_INTERVAL_MS = 100;
/** SAVE_INTERVAL_MS is the most often a streaming message is stored (every step's end is stored too). */
const SAVE_INTERVAL_MS = 1_000;
/** INTERRUPTED_TEXT is the final message of a turn whose process died, or that the server's close cut. */
export const INTERRUPTED_TEXT = 'The server stopped while the agent was answering. Send your message again.';

export interface TurnLimits {
  maxSteps: number;
  turnTimeoutMs: number;
  contextTokens: number;
  /** leaseMs is how long a turn's lease lasts unrenewed (renewed every third of it). */
  leaseMs: number;
}

export interface TurnsDeps {
  store: AgentConversationsStore;
  llm: Pick<LlmService, 'converse' | 'configured'>;
  toolboxOf: (agent: AgentDef) => AgentToolbox;
  skills: ReadonlyMap<string, AgentSkill>;
  publish: (push: AgentPush) => void;
  limits: TurnLimits;
  /** sharedDatabase says other instances may run turns on the same database (REDIS_URL is set). */
  sharedDatabase: boolean;
  log: { warn(fields: object, message: string): void; error(fields: object, message: string): void };
}

/** TurnInput is a turn to run: the conversation (its user message stored), the agent, and who asked. */
export interface TurnInput {
  conversation: ConversationRow;
  history: AgentMessage[];
  agent: AgentDef;
  caller: Caller;
  headers: CallHeaders;
}

export class TurnTimeout extends Error {}
export class TurnClosed extends Error {}

/** errorText is what the final message of a failed turn tells the user. */
function errorText(error: unknown, limits: TurnLimits): string {
  if (error instanceof TurnTimeout) {
    return `The agent took longer than ${Math.round(limits.turnTimeoutMs / 1000)} s (AGENT_TURN_TIMEOUT_MS) and stopped.`;
  }
  if (error instanceof TurnClosed) return INTERRUPTED_TEXT;
  if (error instanceof NotConfiguredError) {
    return `The agent cannot answer: ${error.message}`;
  }
  if (
    error instanceof TooManyRequestsError ||
    error instanceof UpstreamError ||
    error instanceof OutboundLimitError
  ) {
    return `The agent could not answer: ${error.message}`;
  }
  return 'The agent could not answer because of an error on the server.';
}

export async function runTurn(deps: TurnsDeps, input: TurnInput, signal: AbortSignal): Promise<void> {
  const { store, limits, log } = deps;
  const { conversation, history, agent, caller } = input;
  const id = conversation.id;
  const view = conversationOf(conversation, history);
  let writing: Promise<void> = Promise.resolve();
  const persist = (write: () => Promise<void>) => {
    writing = writing
      .then(write)
      .catch((error: unknown) => log.warn({ err: error, conversation: id }, 'agent message write failed'));
  };
  // Writes are queued: each stores the message as it is now, not as it will be when its turn comes (a
  // reader must never see a later state stored before an earlier write, such as a round marked done
  // before the next round's message exists).
  const append = (message: AgentMessage) => {
    const now = structuredClone(message);
    persist(() => store.append(id, now));
  };
  const save = (message: AgentMessage) => {
    const now = structuredClone(message);
    persist(() => store.save(id, now));
  };
  const push = (message: AgentMessage) =>
    deps.publish({
      appId: conversation.app_id,
      conversationId: id,
      ownerId: conversation.created_by_id,
      data: JSON.stringify(pushPayload(view, message)),
    });
  const stamp = (message: AgentMessage) => {
    message.updated_date = new Date().toISOString();
  };
  let current: AgentMessage | null = null;
  let previous: AgentMessage | null = null;
  const settle = (message: AgentMessage) => {
    message.status = 'success';
    push(message);
    save(message);
  };
  // The user's message goes out first: SDK 0.8.50 adds each pushed `_message` to the conversation it read
  // when it subscribed, and apps render that (`setMessages(data.messages)`), their "thinking" state too.
  const asked = history.at(-1);
  if (asked?.role === 'user') push(asked);
  try {
    if (!deps.llm.configured) {
      throw new NotConfiguredError('no LLM provider is configured on this server (set LLM_PROVIDER_URL)');
    }
    const toolbox = deps.toolboxOf(agent);
    const system = systemPrompt(agent, deps.skills, new Date());
    for (let step = 1; ; step++) {
      const message = newMessage('assistant', '', caller, { status: 'running' });
      const context = modelContext(system, history, limits.contextTokens);
      current = message;
      history.push(message);
      append(message);
      // The last round's message is done only now that this one is stored after it: a reader never sees
      // a finished agent message last while the turn goes on.
      if (previous) settle(previous);
      previous = null;
      const streaming = throttled(() => push(message), PUSH_INTERVAL_MS);
      let savedAt = Date.now();
      const answer = await deps.llm.converse(
        conversation.app_id,
        caller,
        { model: agent.model, messages: context, tools: toolbox.specs, signal },
        (text) => {
          message.content = text;
          stamp(message);
          streaming.call();
          if (Date.now() - savedAt >= SAVE_INTERVAL_MS) {
            savedAt = Date.now();
            save(message);
          }
        },
      );
      streaming.cancel();
      message.content = answer.content;
      message.usage = answer.usage;
      message.model = answer.model;
      stamp(message);
      if (answer.toolCalls.length === 0) break;
      message.tool_calls = answer.toolCalls.map((call) => ({
        id: call.id,
        name: call.name,
        arguments_string: call.arguments,
        status: step > limits.maxSteps ? ('stopped' as const) : ('running' as const),
        results: null,
      }));
      // maxSteps rounds of tools have run: a model still asking for more is stopped here.
      if (step > limits.maxSteps) {
        const said = typeof message.content === 'string' && message.content ? `${message.content}\n\n` : '';
        message.content = `${said}I stopped after ${limits.maxSteps} rounds of tool calls (AGENT_MAX_STEPS) without finishing.`;
        message.status = 'error';
        break;
      }
      push(message);
      save(message);
      for (const call of message.tool_calls) {
        if (signal.aborted) throw signal.reason;
        const result = await toolbox.run(call.name, call.arguments_string, {
          appId: conversation.app_id,
          caller,
          headers: input.headers,
          signal,
        });
        call.status = result.ok ? 'success' : 'error';
        call.results = result.results;
        stamp(message);
        push(message);
        save(message);
      }
      previous = message;
    }
    if (current.status === 'running') current.status = 'success';
    push(current);
    save(current);
  } catch (caught) {
    const error = signal.aborted ? signal.reason : caught;
    if (!(
      error instanceof TurnTimeout ||
      error instanceof TurnClosed ||
      error instanceof TooManyRequestsError
    )) {
      log.warn({ err: error, conversation: id }, 'agent turn failed');
    }
    const reuse =
      current && current.status === 'running' && !current.content && current.tool_calls.length === 0;
    const final = reuse && current ? current : newMessage('assistant', '', caller);
    final.status = 'error';
    final.content = errorText(error, limits);
    stamp(final);
    // The final message is stored before anything before it is marked done: a reader polling for the
    // turn's end never sees an earlier message as the last one.
    if (final === current) save(final);
    else {
      history.push(final);
      append(final);
    }
    if (previous) settle(previous);
    if (current && current !== final) {
      // The round that failed keeps what it said; its unfinished calls are stopped.
      if (current.status === 'running') current.status = 'error';
      for (const call of current.tool_calls) if (call.status === 'running') call.status = 'stopped';
      save(current);
    }
    push(final);
  } finally {
    await writing;
    await store
      .endTurn(id)
      .catch((error: unknown) => log.error({ err: error, conversation: id }, 'agent turn end failed'));
  }
}
