import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useConsoleSession } from '../../components/console-context';
import { BUTTON, FIELD } from '../../components/sign-in-screen';
import { AgentMessages } from './agent-messages';
import {
  fetchConversation,
  followConversation,
  sendTestMessage,
  startTestConversation,
  type AgentMessage,
  type ConversationPush,
} from './agents-api';

/** MAX_MESSAGE_CHARS is the server's bound on a test message (schemas/admin-agents.ts). */
const MAX_MESSAGE_CHARS = 4_000;
/** SETTLE_ATTEMPTS and SETTLE_WAIT_MS bound the wait for a finished turn's last writes (a few ms, usually). */
const SETTLE_ATTEMPTS = 20;
const SETTLE_WAIT_MS = 250;

/** turnEnded says whether the agent's turn is over: its last message is the agent's, no longer running. */
const turnEnded = (messages: AgentMessage[]) => {
  const last = messages.at(-1);
  return last === undefined || (last.role === 'assistant' && last.status !== 'running');
};

/** merged is the shown messages after a push: the push's newest ones, the changed message last written. */
function merged(current: AgentMessage[], push: ConversationPush): AgentMessage[] {
  const pushed = push.messages.map((message) => (message.id === push._message.id ? push._message : message));
  if (!pushed.some((message) => message.id === push._message.id)) pushed.push(push._message);
  const kept = current.filter((message) => !pushed.some((newer) => newer.id === message.id));
  return [...kept, ...pushed];
}

/**
 * TestChat runs real turns of agent in a test conversation of the signed-in admin: each step of the turn
 * (tool calls as they run) arrives over the conversation's live stream; once the turn ends the whole
 * conversation is read again, tool results uncut.
 */
export function TestChat({ agent }: { agent: string }) {
  const { api } = useConsoleSession();
  const id = useId();
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [messages, setMessages] = useState<AgentMessage[]>([]);
  const [streamProblem, setStreamProblem] = useState<string | null>(null);
  const stream = useRef<AbortController | null>(null);
  useEffect(() => () => stream.current?.abort(), []);

  /**
   * readWhole reads the conversation once the turn's last writes are stored (the server ends the turn after
   * them), so the uncut results replace the pushed ones and never an older stored state the newer pushes.
   */
  async function readWhole(conversation: string): Promise<void> {
    for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
      const full = await fetchConversation(api, conversation);
      if (!full.turn_running) return setMessages(full.messages);
      await new Promise((wait) => setTimeout(wait, SETTLE_WAIT_MS));
    }
  }

  /** follow opens the conversation's stream and resolves once it is open (pushes after that are seen). */
  function follow(conversation: string): Promise<void> {
    const controller = new AbortController();
    stream.current = controller;
    return new Promise((resolve, reject) => {
      followConversation(api, conversation, controller.signal, {
        onOpen: resolve,
        onPush: (push) => {
          setMessages((current) => merged(current, push));
          if (turnEnded(push.messages)) void readWhole(conversation).catch(() => undefined);
        },
      })
        .catch(reject)
        .finally(() => {
          if (controller.signal.aborted) return;
          stream.current = null;
          setStreamProblem('The live stream closed: send a message to open it again.');
        });
    });
  }

  const send = useMutation({
    mutationFn: async (content: string) => {
      let conversation = conversationId;
      if (!conversation) {
        conversation = (await startTestConversation(api, agent)).id;
        setConversationId(conversation);
      }
      if (!stream.current) {
        setStreamProblem(null);
        await follow(conversation);
      }
      const sent = await sendTestMessage(api, conversation, content);
      // The turn may push the message before or after this answer: shown once either way.
      setMessages((current) =>
        current.some((message) => message.id === sent.id) ? current : [...current, sent],
      );
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const content = String(new FormData(form).get('message') ?? '').trim();
    if (!content) return;
    send.mutate(content, { onSuccess: () => form.reset() });
  }

  function startOver() {
    stream.current?.abort();
    stream.current = null;
    setConversationId(null);
    setMessages([]);
    setStreamProblem(null);
    send.reset();
  }

  const answering = send.isPending || !turnEnded(messages);
  return (
    <section aria-labelledby={`${id}-chat`} className="mt-4">
      <h4 id={`${id}-chat`} className="font-semibold text-gold-100">
        Test chat with {agent}
      </h4>
      <p className="text-sm text-gray-300">
        Runs real turns as you, tools included, in a conversation marked as a console test.
      </p>
      {messages.length > 0 && <AgentMessages messages={messages} label={`Test chat with ${agent}`} />}
      <p role="status" className="mt-2 text-sm text-gray-300">
        {answering && conversationId ? 'The agent is answering…' : ''}
      </p>
      <form onSubmit={submit} className="mt-2 flex max-w-2xl flex-col gap-2">
        <label className="flex flex-col gap-1">
          Message
          <textarea name="message" rows={3} required maxLength={MAX_MESSAGE_CHARS} className={FIELD} />
        </label>
        {(send.isError || streamProblem) && (
          <p role="alert" className="text-red-200">
            {send.isError ? send.error.message : streamProblem}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <button type="submit" disabled={answering} className={BUTTON}>
            {answering && send.isPending ? 'Sending…' : 'Send'}
          </button>
          {conversationId && (
            <button type="button" onClick={startOver} className={BUTTON}>
              New test conversation
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
