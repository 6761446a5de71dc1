import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useConsoleSession } from '../../components/console-context';
import { EmptyState } from '../../components/page-states';
import { BUTTON, FIELD } from '../../components/sign-in-screen';
import { Section } from './integration-section';
import { tryOperation, type CustomIntegration, type Operation, type TryInput } from './integrations-api';

/** MAX_PAYLOAD_CHARS matches the server's bound on a "try" (64 KB in all). */
const MAX_PAYLOAD_CHARS = 60 * 1024;

/** CustomIntegrationsSection lists the project's custom integrations, each with a "try" form. */
export function CustomIntegrationsSection({ integrations }: { integrations: CustomIntegration[] }) {
  return (
    <Section id="integrations-custom" title="Custom integrations">
      {integrations.length === 0 ? (
        <EmptyState>
          This project declares no custom integrations (its integrations/ folder is empty).
        </EmptyState>
      ) : (
        integrations.map((integration) => (
          <IntegrationItem key={integration.slug} integration={integration} />
        ))
      )}
    </Section>
  );
}

function IntegrationItem({ integration }: { integration: CustomIntegration }) {
  const { auth } = integration;
  return (
    <article aria-label={integration.slug} className="mt-3 rounded border border-royal-700 p-3">
      <h3 className="font-mono text-base font-semibold text-gold-100">{integration.slug}</h3>
      <p className="text-sm break-all">
        {integration.base_url} · {integration.operations_total} operations · deadline {integration.timeout_ms}{' '}
        ms
      </p>
      <p className="text-sm">
        {auth ? (
          <>
            Signs in with the secret <code>{auth.secret}</code> in {auth.header}:{' '}
            {auth.secret_set ? 'set' : <strong className="text-red-200">not set</strong>}
          </>
        ) : (
          'No sign-in'
        )}
      </p>
      {integration.operations.length > 0 && <TryForm integration={integration} />}
    </article>
  );
}

/** inputOf reads the form: each declared path and query parameter filled in, and the JSON payload. */
function inputOf(data: FormData, operation: Operation): TryInput | string {
  const input: TryInput = {};
  for (const param of operation.params) {
    const value = String(data.get(`param:${param.in}:${param.name}`) ?? '');
    if (value === '') continue;
    if (param.in === 'path') input.path_params = { ...input.path_params, [param.name]: value };
    if (param.in === 'query') input.query_params = { ...input.query_params, [param.name]: value };
  }
  const payload = String(data.get('payload') ?? '').trim();
  if (payload !== '') {
    try {
      input.payload = JSON.parse(payload) as unknown;
    } catch (error) {
      return `The payload is not JSON: ${(error as Error).message}`;
    }
  }
  return input;
}

function TryForm({ integration }: { integration: CustomIntegration }) {
  const { api } = useConsoleSession();
  const id = useId();
  const [operationId, setOperationId] = useState(integration.operations[0]?.id ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const operation = integration.operations.find((item) => item.id === operationId);
  const run = useMutation({
    mutationFn: (input: TryInput) => tryOperation(api, integration.slug, operationId, input),
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!operation) return;
    const input = inputOf(new FormData(event.currentTarget), operation);
    if (typeof input === 'string') return setProblem(input);
    setProblem(null);
    run.mutate(input);
  }
  const error = problem ?? (run.isError ? run.error.message : null);
  const fields = operation?.params.filter((param) => param.in === 'path' || param.in === 'query') ?? [];
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-try`} className="mt-3 flex max-w-2xl flex-col gap-3">
      <h4 id={`${id}-try`} className="font-semibold">
        Try {integration.slug}
      </h4>
      <label className="flex flex-col gap-1">
        Operation
        <select
          value={operationId}
          onChange={(event) => {
            setOperationId(event.target.value);
            run.reset();
          }}
          className={FIELD}
        >
          {integration.operations.map((item) => (
            <option key={item.id} value={item.id}>
              {item.method.toUpperCase()} {item.path}
              {item.operation_id ? ` (${item.operation_id})` : ''}
            </option>
          ))}
        </select>
      </label>
      {fields.map((param) => (
        <label key={`${operationId}:${param.in}:${param.name}`} className="flex flex-col gap-1">
          {param.name} ({param.in}
          {param.required ? ', required' : ''})
          <input
            name={`param:${param.in}:${param.name}`}
            required={param.required}
            maxLength={2000}
            autoComplete="off"
            className={FIELD}
          />
        </label>
      ))}
      {operation && operation.body !== 'none' && (
        <label className="flex flex-col gap-1">
          JSON payload{operation.body === 'required' ? ' (required)' : ''}
          <textarea
            key={operationId}
            name="payload"
            rows={4}
            spellCheck={false}
            maxLength={MAX_PAYLOAD_CHARS}
            required={operation.body === 'required'}
            className={`${FIELD} font-mono`}
          />
        </label>
      )}
      {error && (
        <p role="alert" className="text-red-200">
          {error}
        </p>
      )}
      <button type="submit" disabled={run.isPending} className={`${BUTTON} self-start`}>
        {run.isPending ? 'Calling…' : 'Try it'}
      </button>
      {run.data && (
        <div role="region" aria-label={`${integration.slug} answer`} className="flex flex-col gap-2">
          <p>
            Status <strong data-testid="try-status">{run.data.status_code}</strong>
            {run.data.success ? '' : ' (not a success)'}
          </p>
          <pre className="overflow-x-auto rounded bg-royal-900 p-2 text-sm break-all whitespace-pre-wrap">
            {run.data.data}
          </pre>
          {run.data.data_truncated && <p>The answer was cut at 64 KB.</p>}
        </div>
      )}
    </form>
  );
}
