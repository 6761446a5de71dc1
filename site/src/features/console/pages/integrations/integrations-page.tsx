import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useConsoleSession } from '../../components/console-context';
import { EmptyState, ErrorState, LoadingState, PageHeading } from '../../components/page-states';
import { BUTTON } from '../../components/sign-in-screen';
import { CustomIntegrationsSection } from './custom-section';
import { FilesSection } from './files-section';
import { Section } from './integration-section';
import {
  checkLlm,
  fetchIntegrations,
  INTEGRATIONS_KEY,
  type IntegrationsSummary,
  type LlmCheck,
} from './integrations-api';

const when = (iso: string) => <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;
const number = (value: number) => value.toLocaleString('en-US');

/** IntegrationsPage shows what the app's integrations are set to and how they are doing today. */
export function IntegrationsPage() {
  const { api } = useConsoleSession();
  const summary = useQuery({ queryKey: INTEGRATIONS_KEY, queryFn: () => fetchIntegrations(api) });
  return (
    <>
      <PageHeading>Integrations</PageHeading>
      <p className="mt-2 text-gray-300">The LLM provider, mail, custom integrations and file storage.</p>
      {summary.isPending && <LoadingState what="integrations" />}
      {summary.isError && <ErrorState error={summary.error} retry={() => void summary.refetch()} />}
      {summary.data && (
        <>
          <LlmSection llm={summary.data.llm} />
          <BudgetSection budget={summary.data.budget} />
          <MailSection mail={summary.data.mail} />
          <CustomIntegrationsSection integrations={summary.data.custom} />
          <FilesSection files={summary.data.files} />
        </>
      )}
    </>
  );
}

function CheckOutcome({ check }: { check: LlmCheck | null }) {
  if (!check) return <p>Not checked since the server started.</p>;
  return check.ok ? (
    <p>
      <strong className="text-green-200">Reachable</strong>: {check.model} answered in {check.latency_ms} ms (
      {check.tokens} tokens), checked {when(check.checked_at)}.
    </p>
  ) : (
    <p>
      <strong className="text-red-200">Not reachable</strong>: {check.problem}, checked{' '}
      {when(check.checked_at)}.
    </p>
  );
}

function LlmSection({ llm }: { llm: IntegrationsSummary['llm'] }) {
  const { api } = useConsoleSession();
  const queryClient = useQueryClient();
  const check = useMutation({
    mutationFn: () => checkLlm(api),
    onSettled: () => queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY }),
  });
  return (
    <Section id="integrations-llm" title="LLM provider">
      {llm.configured ? (
        <>
          <p className="mt-2">
            {llm.host} · model <code>{llm.model}</code> · deadline {number(llm.timeout_ms)} ms
          </p>
          <div role="status" aria-live="polite" className="mt-2">
            <CheckOutcome check={llm.last_check} />
          </div>
          {check.isError && (
            <p role="alert" className="text-red-200">
              Could not check: {check.error.message}
            </p>
          )}
          <button
            type="button"
            onClick={() => check.mutate()}
            disabled={check.isPending}
            className={`${BUTTON} mt-3`}
          >
            {check.isPending ? 'Checking…' : 'Check the provider'}
          </button>
        </>
      ) : (
        <EmptyState>
          No LLM provider is set: InvokeLLM and agents answer 503. Set LLM_PROVIDER_URL (and LLM_API_KEY) to
          use one.
        </EmptyState>
      )}
    </Section>
  );
}

function BudgetSection({ budget }: { budget: IntegrationsSummary['budget'] }) {
  const percent = budget.daily_tokens > 0 ? (budget.used_tokens / budget.daily_tokens) * 100 : 0;
  return (
    <Section id="integrations-budget" title="LLM tokens today">
      <p className="mt-2">
        <strong>{number(budget.used_tokens)}</strong> of {number(budget.daily_tokens)} tokens (
        {percent.toFixed(1)} %) in {number(budget.calls)} calls since {when(budget.day_start)}.
      </p>
      <p className="text-sm text-gray-300">
        Each user may spend {number(budget.user_daily_tokens)} tokens a day, each IP{' '}
        {number(budget.ip_daily_tokens)}; {budget.service_reserve_percent} % is kept for the app's backend.
      </p>
      {budget.top_users.length === 0 ? (
        <EmptyState>No signed-in user has called the LLM today.</EmptyState>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="text-left font-semibold">Top users today</caption>
            <thead>
              <tr className="text-gray-300">
                <th className="py-1 pr-4">User</th>
                <th className="py-1 pr-4">Calls</th>
                <th className="py-1">Tokens</th>
              </tr>
            </thead>
            <tbody>
              {budget.top_users.map((user) => (
                <tr key={user.user_id} className="border-t border-royal-700">
                  <th scope="row" className="py-1 pr-4 font-normal break-all">
                    {user.email ?? `${user.user_id} (deleted)`}
                  </th>
                  <td className="py-1 pr-4">{number(user.calls)}</td>
                  <td className="py-1">{number(user.tokens)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function MailSection({ mail }: { mail: IntegrationsSummary['mail'] }) {
  return (
    <Section id="integrations-mail" title="Mail">
      <p className="mt-2">
        {mail.mode === 'smtp' ? 'SMTP' : 'Outbox (no SMTP_URL)'}: {mail.detail}
      </p>
      <p className="text-sm text-gray-300">
        Today: {mail.today.sent} sent, {mail.today.failed} failed.
      </p>
      {mail.recent.length === 0 ? (
        <EmptyState>No mail has been sent yet.</EmptyState>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="text-left font-semibold">
              Last mails (recipients and contents are not kept)
            </caption>
            <thead>
              <tr className="text-gray-300">
                <th className="py-1 pr-4">When</th>
                <th className="py-1 pr-4">Transport</th>
                <th className="py-1">Status</th>
              </tr>
            </thead>
            <tbody>
              {mail.recent.map((sent, index) => (
                <tr key={`${sent.sent_at}-${index}`} className="border-t border-royal-700">
                  <td className="py-1 pr-4">{when(sent.sent_at)}</td>
                  <td className="py-1 pr-4">{sent.transport}</td>
                  <td className="py-1 break-all">
                    {sent.ok ? 'sent' : `failed: ${sent.error ?? 'no reason given'}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
