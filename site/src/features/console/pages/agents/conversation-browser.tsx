import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useConsoleSession } from '../../components/console-context';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { BUTTON, FIELD } from '../../components/sign-in-screen';
import { AgentMessages } from './agent-messages';
import {
  fetchConversation,
  fetchConversations,
  type ConsoleAgent,
  type ConversationFilters,
  type ConversationSummary,
} from './agents-api';

const when = (iso: string) => <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;

/** ConversationBrowser lists any user's conversations (filtered by agent and user); one opens read-only. */
export function ConversationBrowser({ agents }: { agents: ConsoleAgent[] }) {
  const { api } = useConsoleSession();
  const id = useId();
  const [filters, setFilters] = useState<ConversationFilters>({ agent: '', user: '' });
  const [open, setOpen] = useState<string | null>(null);
  const pages = useInfiniteQuery({
    queryKey: ['console', 'agent-conversations', filters],
    queryFn: ({ pageParam }) => fetchConversations(api, filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const rows = pages.data?.pages.flatMap((page) => page.items) ?? [];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setFilters({ agent: String(data.get('agent') ?? ''), user: String(data.get('user') ?? '').trim() });
    setOpen(null);
  }

  return (
    <section aria-labelledby={`${id}-browser`} className="mt-10">
      <h2 id={`${id}-browser`} className="text-xl font-semibold text-gold-100">
        Conversations
      </h2>
      <p className="mt-1 text-gray-300">Every user’s conversations, newest first. Read-only.</p>
      <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1">
          Agent
          <select name="agent" defaultValue="" className={FIELD}>
            <option value="">All agents</option>
            {agents.map((agent) => (
              <option key={agent.name} value={agent.name}>
                {agent.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          User (email)
          <input name="user" type="email" autoComplete="off" maxLength={320} className={FIELD} />
        </label>
        <button type="submit" className={BUTTON}>
          Show
        </button>
      </form>
      {pages.isPending && <LoadingState what="conversations" />}
      {pages.isError && <ErrorState error={pages.error} retry={() => void pages.refetch()} />}
      {pages.data && rows.length === 0 && <EmptyState>No conversations match.</EmptyState>}
      {rows.length > 0 && (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Conversations, newest first</caption>
            <thead>
              <tr className="text-gray-300">
                <th className="py-2 pr-4">Started</th>
                <th className="py-2 pr-4">User</th>
                <th className="py-2 pr-4">Agent</th>
                <th className="py-2 pr-4">Messages</th>
                <th className="py-2 pr-4">Tool calls</th>
                <th className="py-2">Tokens</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <SummaryRow key={row.id} row={row} open={row.id === open} onOpen={() => setOpen(row.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages.hasNextPage && (
        <button
          type="button"
          onClick={() => void pages.fetchNextPage()}
          disabled={pages.isFetchingNextPage}
          className={`${BUTTON} mt-3`}
        >
          {pages.isFetchingNextPage ? 'Loading…' : 'Load older'}
        </button>
      )}
      {open && <ConversationView key={open} id={open} />}
    </section>
  );
}

function SummaryRow({ row, open, onOpen }: { row: ConversationSummary; open: boolean; onOpen: () => void }) {
  const who = row.created_by ?? 'service role';
  const started = new Date(row.created_date).toLocaleString();
  return (
    <tr className="border-t border-royal-700">
      <th scope="row" className="py-2 pr-4 font-normal">
        <button
          type="button"
          onClick={onOpen}
          aria-pressed={open}
          aria-label={`${started}: open the conversation of ${who} with ${row.agent_name}`}
          className="text-left text-gold-100 underline"
        >
          <time dateTime={row.created_date}>{started}</time>
        </button>
        {row.metadata.console_test === true && <span className="ml-2 text-gray-300">(console test)</span>}
      </th>
      <td className="py-2 pr-4 break-all">{who}</td>
      <td className="py-2 pr-4 font-mono">{row.agent_name}</td>
      <td className="py-2 pr-4">{row.messages}</td>
      <td className="py-2 pr-4">{row.tool_calls}</td>
      <td className="py-2">{row.prompt_tokens + row.completion_tokens}</td>
    </tr>
  );
}

function ConversationView({ id }: { id: string }) {
  const { api } = useConsoleSession();
  const conversation = useQuery({
    queryKey: ['console', 'agent-conversation', id],
    queryFn: () => fetchConversation(api, id),
  });
  const data = conversation.data;
  const usage = data?.messages.reduce(
    (sum, message) =>
      sum + (message.usage ? message.usage.prompt_tokens + message.usage.completion_tokens : 0),
    0,
  );
  return (
    <section aria-label="Conversation" className="mt-6 rounded-lg border border-royal-600 p-4">
      {conversation.isPending && <LoadingState what="the conversation" />}
      {conversation.isError && (
        <ErrorState error={conversation.error} retry={() => void conversation.refetch()} />
      )}
      {data && (
        <>
          <h3 className="text-lg font-semibold text-gold-100">
            {data.created_by ?? 'Service role'} with <span className="font-mono">{data.agent_name}</span>
          </h3>
          <p className="text-sm text-gray-300">
            Started {when(data.created_date)} · {data.messages.length} messages · {usage} tokens
            {data.turn_running && ' · the agent is answering'}
          </p>
          {data.messages.length === 0 ? (
            <EmptyState>No messages yet.</EmptyState>
          ) : (
            <AgentMessages messages={data.messages} label="Messages" />
          )}
        </>
      )}
    </section>
  );
}
