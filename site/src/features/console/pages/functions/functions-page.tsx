import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useConsoleSession } from '../../components/console-context';
import { EmptyState, ErrorState, LoadingState, PageHeading } from '../../components/page-states';
import { BUTTON } from '../../components/sign-in-screen';
import { toast } from '../../../../components/ui/use-toast';
import {
  fetchFunctions,
  FUNCTIONS_KEY,
  runScheduleNow,
  type ConsoleAutomation,
  type ConsoleFunction,
} from './functions-api';
import { InvokePanel } from './invoke-panel';

const ms = (value: number | null) => (value === null ? '–' : `${Math.round(value)} ms`);
const when = (iso: string | null) =>
  iso ? <time dateTime={iso}>{new Date(iso).toLocaleString()}</time> : <>–</>;

/** FunctionsPage lists the project's functions with their last 24 h; one chosen shows its panel. */
export function FunctionsPage() {
  const { api } = useConsoleSession();
  const functions = useQuery({ queryKey: FUNCTIONS_KEY, queryFn: () => fetchFunctions(api) });
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = functions.data?.find((fn) => fn.name === chosen) ?? null;
  return (
    <>
      <PageHeading>Functions</PageHeading>
      <p className="mt-2 text-gray-300">Each backend function's calls over the last 24 hours.</p>
      {functions.isPending && <LoadingState what="functions" />}
      {functions.isError && <ErrorState error={functions.error} retry={() => void functions.refetch()} />}
      {functions.data?.length === 0 && (
        <EmptyState>This project has no backend functions (its functions/ folder is empty).</EmptyState>
      )}
      {functions.data && functions.data.length > 0 && (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Functions, last 24 hours</caption>
            <thead>
              <tr className="text-gray-300">
                <th className="py-2 pr-4">Function</th>
                <th className="py-2 pr-4">Last status</th>
                <th className="py-2 pr-4">Calls</th>
                <th className="py-2 pr-4">Error rate</th>
                <th className="py-2 pr-4">p50</th>
                <th className="py-2">p95</th>
              </tr>
            </thead>
            <tbody>
              {functions.data.map((fn) => (
                <FunctionRow
                  key={fn.name}
                  fn={fn}
                  open={fn.name === chosen}
                  onOpen={() => setChosen(fn.name)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {selected && <FunctionPanel fn={selected} />}
    </>
  );
}

function FunctionRow({ fn, open, onOpen }: { fn: ConsoleFunction; open: boolean; onOpen: () => void }) {
  return (
    <tr className="border-t border-royal-700">
      <th scope="row" className="py-2 pr-4 font-mono font-normal">
        <button type="button" onClick={onOpen} aria-pressed={open} className="text-gold-100 underline">
          {fn.name}
        </button>
      </th>
      <td className="py-2 pr-4">{fn.last_status ?? '–'}</td>
      <td className="py-2 pr-4">{fn.calls}</td>
      <td className="py-2 pr-4">{fn.error_rate === null ? '–' : `${(fn.error_rate * 100).toFixed(1)} %`}</td>
      <td className="py-2 pr-4">{ms(fn.p50_ms)}</td>
      <td className="py-2">{ms(fn.p95_ms)}</td>
    </tr>
  );
}

function FunctionPanel({ fn }: { fn: ConsoleFunction }) {
  return (
    <section aria-labelledby="function-panel" className="mt-6 rounded-lg border border-royal-600 p-4">
      <h2 id="function-panel" className="font-mono text-xl font-semibold text-gold-100">
        {fn.name}
      </h2>
      <InvokePanel key={fn.name} name={fn.name} />
      <h3 className="mt-6 text-lg font-semibold text-gold-100">Automations</h3>
      {fn.automations.length === 0 ? (
        <EmptyState>No automations: this function runs only when called.</EmptyState>
      ) : (
        <ul className="mt-2 flex flex-col gap-2">
          {fn.automations.map((automation) => (
            <AutomationItem key={automation.name} fn={fn.name} automation={automation} />
          ))}
        </ul>
      )}
      {fn.last_runs.length > 0 && (
        <>
          <h3 className="mt-6 text-lg font-semibold text-gold-100">Last automation runs</h3>
          <ul aria-label="Last automation runs" className="mt-2">
            {fn.last_runs.map((run) => (
              <li key={run.logged_at}>
                {when(run.logged_at)}: status {run.status} in {run.duration_ms} ms
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function AutomationItem({ fn, automation }: { fn: string; automation: ConsoleAutomation }) {
  const { api } = useConsoleSession();
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: () => runScheduleNow(api, fn, automation.name),
    onSuccess: async (outcome) => {
      toast({
        description: outcome.ok
          ? `${automation.name} ran (status ${outcome.status}).`
          : `${automation.name} failed (status ${outcome.status}): ${outcome.detail ?? ''}`,
        variant: outcome.ok ? 'default' : 'destructive',
      });
      await queryClient.invalidateQueries({ queryKey: FUNCTIONS_KEY });
    },
    onError: (failure) =>
      toast({ description: `Could not run ${automation.name}: ${failure.message}`, variant: 'destructive' }),
  });
  const scheduled = automation.type === 'scheduled';
  return (
    <li className="rounded border border-royal-700 p-3">
      <p>
        <strong>{automation.name}</strong> · {automation.type}
        {!automation.is_active && ' · inactive'}
      </p>
      {scheduled && (
        <p className="text-sm text-gray-300">
          Next run {when(automation.next_run_at)} · last run {when(automation.last_run_at)} ·{' '}
          {automation.runs} scheduled runs
        </p>
      )}
      {automation.type === 'entity' && (
        <p className="text-sm text-gray-300">
          On {String(automation.definition.entity_name)}{' '}
          {JSON.stringify(automation.definition.event_types ?? [])}
        </p>
      )}
      {scheduled && (
        <button
          type="button"
          onClick={() => run.mutate()}
          disabled={run.isPending}
          className={`${BUTTON} mt-2`}
          aria-label={`Run now: ${automation.name}`}
        >
          {run.isPending ? 'Running…' : 'Run now'}
        </button>
      )}
    </li>
  );
}
