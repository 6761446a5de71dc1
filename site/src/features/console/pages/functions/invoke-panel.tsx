import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useConsoleSession } from '../../components/console-context';
import { BUTTON, FIELD } from '../../components/sign-in-screen';
import { invokeFunction, type InvokeAnswer } from './functions-api';

/** parseBody reads the JSON body typed in, or says why it is not JSON. */
function parseBody(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: `The body is not JSON: ${(error as Error).message}` };
  }
}

/** InvokePanel calls one function with a JSON body, as the admin or as a user found by email. */
export function InvokePanel({ name }: { name: string }) {
  const { api } = useConsoleSession();
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const invoke = useMutation({
    mutationFn: async ({ body, asEmail }: { body: unknown; asEmail: string }) => {
      let asUserId: string | null = null;
      if (asEmail) {
        const found = await api.users({ page: 1, q: asEmail, sort: 'email', role: '', status: '' });
        const user = found.users.find((row) => row.email.toLowerCase() === asEmail.toLowerCase());
        if (!user) throw new Error(`No user has the email ${asEmail}`);
        asUserId = user.id;
      }
      return invokeFunction(api, name, body, asUserId);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const body = parseBody(String(data.get('body') ?? ''));
    if (!body.ok) return setProblem(body.message);
    setProblem(null);
    invoke.mutate({ body: body.value, asEmail: String(data.get('as') ?? '').trim() });
  }

  const error = problem ?? (invoke.isError ? invoke.error.message : null);
  return (
    <section aria-labelledby={`${id}-invoke`} className="mt-4">
      <h3 id={`${id}-invoke`} className="text-lg font-semibold text-gold-100">
        Invoke {name}
      </h3>
      <form onSubmit={submit} className="mt-2 flex max-w-2xl flex-col gap-3">
        <label className="flex flex-col gap-1">
          JSON body
          <textarea
            name="body"
            rows={5}
            defaultValue="{}"
            spellCheck={false}
            maxLength={256 * 1024}
            className={`${FIELD} font-mono`}
          />
        </label>
        <label className="flex flex-col gap-1">
          Call as user (email; empty: you)
          <input name="as" type="email" autoComplete="off" maxLength={200} className={FIELD} />
        </label>
        {error && (
          <p role="alert" className="text-red-200">
            {error}
          </p>
        )}
        <button type="submit" disabled={invoke.isPending} className={`${BUTTON} self-start`}>
          {invoke.isPending ? 'Calling…' : 'Invoke'}
        </button>
      </form>
      {invoke.data && <InvokeResult answer={invoke.data} />}
    </section>
  );
}

function InvokeResult({ answer }: { answer: InvokeAnswer }) {
  const headers = Object.entries(answer.headers).map(
    ([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : value}`,
  );
  return (
    <div role="region" aria-label="Call result" className="mt-4 flex flex-col gap-3">
      <p>
        Status <strong data-testid="invoke-status">{answer.status}</strong>
        {answer.duration_ms !== null && <> in {answer.duration_ms} ms</>} · request{' '}
        <code className="break-all">{answer.request_id}</code>
      </p>
      <details>
        <summary className="cursor-pointer">Headers ({headers.length})</summary>
        <pre className="mt-1 overflow-x-auto rounded bg-royal-900 p-2 text-sm">{headers.join('\n')}</pre>
      </details>
      <h4 className="font-semibold">Body{answer.body_truncated && ' (cut at 64 KB)'}</h4>
      <pre
        aria-label="Body"
        className="overflow-x-auto rounded bg-royal-900 p-2 text-sm whitespace-pre-wrap break-all"
      >
        {answer.body}
      </pre>
      <h4 className="font-semibold">Output</h4>
      {answer.output.length === 0 ? (
        <p className="text-gray-300">The call printed nothing.</p>
      ) : (
        <pre
          aria-label="Output"
          className="overflow-x-auto rounded bg-royal-900 p-2 text-sm whitespace-pre-wrap break-all"
        >
          {answer.output.map((line) => `${line.stream === 'stderr' ? '! ' : ''}${line.line}`).join('\n')}
        </pre>
      )}
      {answer.output_dropped > 0 && <p>{answer.output_dropped} more lines were not kept.</p>}
    </div>
  );
}
