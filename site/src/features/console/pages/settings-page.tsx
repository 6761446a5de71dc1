import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { VISIBILITIES, type AccessSettings, type Overview, type Visibility } from '../api/console-api';
import { useConsoleSession } from '../components/console-context';
import { ErrorState, LoadingState, PageHeading } from '../components/page-states';
import { BUTTON } from '../components/sign-in-screen';
import { toast } from '../../../components/ui/use-toast';
import { VISIBILITY_CHOICES } from './visibility-choices';

const OVERVIEW_KEY = ['console', 'overview'];

const isVisibility = (value: unknown): value is Visibility =>
  (VISIBILITIES as readonly unknown[]).includes(value);

function AccessForm({ current }: { current: AccessSettings }) {
  const { api } = useConsoleSession();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (settings: AccessSettings) => api.updateSettings(settings),
    onSuccess: async (stored) => {
      setError(null);
      toast({
        description: `Settings saved: ${VISIBILITY_CHOICES[stored.visibility].label}, self-sign-up ${
          stored.selfSignup ? 'on' : 'off'
        }. They apply now.`,
      });
      await queryClient.invalidateQueries({ queryKey: OVERVIEW_KEY });
    },
    onError: (failure) => setError(failure.message),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const visibility = data.get('visibility');
    if (!isVisibility(visibility)) return setError('Choose a visibility.');
    save.mutate({ visibility, selfSignup: data.get('self_signup') === 'on' });
  }

  return (
    <form onSubmit={submit} aria-labelledby="access-settings" className="mt-6 flex max-w-xl flex-col gap-4">
      <h2 id="access-settings" className="text-lg font-semibold text-gold-100">
        Who may open the app
      </h2>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-gray-300">Visibility</legend>
        {VISIBILITIES.map((visibility) => (
          <label key={visibility} className="flex items-start gap-2">
            <input
              type="radio"
              name="visibility"
              value={visibility}
              defaultChecked={current.visibility === visibility}
              className="mt-1"
            />
            <span>
              {VISIBILITY_CHOICES[visibility].label}
              <span className="block text-sm text-gray-300">{VISIBILITY_CHOICES[visibility].hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="self_signup" defaultChecked={current.selfSignup} />
        Self-sign-up: visitors may create their own account
      </label>
      {error && (
        <p role="alert" className="text-red-200">
          {error}
        </p>
      )}
      <button type="submit" disabled={save.isPending} className={`${BUTTON} self-start`}>
        {save.isPending ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}

function TestMail() {
  const { api } = useConsoleSession();
  const send = useMutation({
    mutationFn: () => api.sendTestMail(),
    onSuccess: (to) => toast({ description: `A test mail is on its way to ${to}.` }),
    onError: (failure) =>
      toast({ description: `Could not send a test mail: ${failure.message}`, variant: 'destructive' }),
  });
  return (
    <section aria-labelledby="test-mail" className="mt-8">
      <h2 id="test-mail" className="text-lg font-semibold text-gold-100">
        Mail
      </h2>
      <p className="mt-2 text-gray-300">Send yourself a short message to check that mail is delivered.</p>
      <button
        type="button"
        disabled={send.isPending}
        onClick={() => send.mutate()}
        className={`${BUTTON} mt-3`}
      >
        {send.isPending ? 'Sending…' : 'Send a test mail'}
      </button>
    </section>
  );
}

function ReadOnlySettings({ overview }: { overview: Overview }) {
  return (
    <>
      <section aria-labelledby="sign-in-providers" className="mt-8">
        <h2 id="sign-in-providers" className="text-lg font-semibold text-gold-100">
          Sign-in providers
        </h2>
        <p className="mt-2 text-gray-300">From the project&apos;s auth/config.jsonc; read-only here.</p>
        <p className="mt-2">
          Email and password
          {overview.signInProviders.length > 0 ? `, ${overview.signInProviders.join(', ')}` : ''}
        </p>
      </section>
      <section aria-labelledby="from-environment" className="mt-8">
        <h2 id="from-environment" className="text-lg font-semibold text-gold-100">
          From the environment
        </h2>
        <p className="mt-2 text-gray-300">Set by the server&apos;s environment variables; read-only here.</p>
        <dl className="mt-3 grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-6 gap-y-2">
          {overview.environment.map(({ variable, value }) => (
            <div key={variable} className="contents">
              <dt className="font-mono text-gray-300">{variable}</dt>
              <dd className="break-words text-white">{value}</dd>
            </div>
          ))}
        </dl>
      </section>
    </>
  );
}

/**
 * SettingsPage changes the app's visibility and self-sign-up, live (PUT /admin/settings, audited), and shows
 * the sign-in providers and the settings from the environment, read-only: all read from the Overview's answer.
 */
export function SettingsPage() {
  const { api } = useConsoleSession();
  const overview = useQuery({ queryKey: OVERVIEW_KEY, queryFn: () => api.overview() });
  const app = overview.data?.app;
  return (
    <>
      <PageHeading>Settings</PageHeading>
      {overview.isPending && <LoadingState what="the settings" />}
      {overview.isError && <ErrorState error={overview.error} retry={() => void overview.refetch()} />}
      {app && isVisibility(app.visibility) && (
        <AccessForm
          key={`${app.visibility}-${app.selfSignup}`}
          current={{ visibility: app.visibility, selfSignup: app.selfSignup }}
        />
      )}
      {overview.data && <TestMail />}
      {overview.data && <ReadOnlySettings overview={overview.data} />}
    </>
  );
}
