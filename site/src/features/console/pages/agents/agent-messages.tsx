import type { AgentMessage, ToolCall } from './agents-api';

// A conversation's messages as the console shows them: who said it, the text, each tool call with its
// status, arguments and results, and the tokens the step used.

const textOf = (content: unknown) =>
  typeof content === 'string' ? content : JSON.stringify(content ?? null, null, 2);

/** AgentMessages lists messages in order (read-only); label names the list for screen readers. */
export function AgentMessages({ messages, label }: { messages: AgentMessage[]; label: string }) {
  return (
    <ol aria-label={label} className="mt-3 flex flex-col gap-3">
      {messages.map((message) => (
        <li
          key={message.id}
          className={`rounded border p-3 ${message.role === 'user' ? 'border-royal-600' : 'border-royal-700 bg-royal-900/60'}`}
        >
          <p className="text-sm text-gray-300">
            <strong className="text-gold-100">{message.role === 'user' ? 'User' : 'Agent'}</strong>
            {message.status && message.status !== 'success' && <> · {message.status}</>}
            {message.hidden && <> · hidden</>} ·{' '}
            <time dateTime={message.created_date}>{new Date(message.created_date).toLocaleTimeString()}</time>
          </p>
          {textOf(message.content) && (
            <p className="mt-1 break-words whitespace-pre-wrap">{textOf(message.content)}</p>
          )}
          {message.tool_calls.length > 0 && (
            <ul aria-label="Tool calls" className="mt-2 flex flex-col gap-2">
              {message.tool_calls.map((call) => (
                <ToolCallItem key={call.id} call={call} />
              ))}
            </ul>
          )}
          {message.usage && (
            <p className="mt-2 text-sm text-gray-300">
              {message.usage.prompt_tokens} prompt + {message.usage.completion_tokens} completion tokens
              {message.model && <> · {message.model}</>}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

function ToolCallItem({ call }: { call: ToolCall }) {
  return (
    <li className="rounded border border-royal-700 p-2 text-sm" data-testid="tool-call">
      <p>
        Tool <code className="font-mono text-gold-100">{call.name}</code> ·{' '}
        <span data-testid="tool-call-status">{call.status}</span>
      </p>
      <details className="mt-1">
        <summary className="cursor-pointer">Arguments and results</summary>
        <p className="mt-1 text-gray-300">Arguments</p>
        <pre className="font-mono text-xs break-all whitespace-pre-wrap">{call.arguments_string || '{}'}</pre>
        <p className="mt-1 text-gray-300">Results</p>
        <pre className="font-mono text-xs break-all whitespace-pre-wrap">{call.results ?? '(none yet)'}</pre>
      </details>
    </li>
  );
}
