import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConsoleSession } from '../components/console-context';
import { EmptyState, ErrorState, LoadingState, PageHeading } from '../components/page-states';
import { BUTTON, FIELD } from '../components/sign-in-screen';
import { toast } from '../../../components/ui/use-toast';

const RESTARTS = "Every change restarts the app's backend functions, so they read the new secrets.";
const SECRETS_KEY = ['console', 'secrets'];

function SetSecretForm() {
  const { api } = useConsoleSession();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const set = useMutation({
    mutationFn: ({ name, value }: { name: string; value: string }) => api.setSecret(name, value),
    onSuccess: async (_answer, { name }) => {
      setError(null);
      toast({ description: `${name} is set. The backend functions restarted to read it.` });
      await queryClient.invalidateQueries({ queryKey: SECRETS_KEY });
    },
    onError: (failure) => setError(failure.message),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    set.mutate(
      { name: String(data.get('name') ?? '').trim(), value: String(data.get('value') ?? '') },
      // The value leaves the page as soon as it is sent: the field is write-only.
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <form onSubmit={submit} aria-labelledby="set-secret" className="mt-4 flex max-w-xl flex-col gap-3">
      <h2 id="set-secret" className="text-lg font-semibold text-gold-100">
        Set a secret
      </h2>
      <label className="flex flex-col gap-1">
        Name
        <input name="name" required autoComplete="off" spellCheck={false} className={FIELD} />
      </label>
      <label className="flex flex-col gap-1">
        Value
        <input name="value" type="password" required autoComplete="new-password" className={FIELD} />
      </label>
      {error && (
        <p role="alert" className="text-red-200">
          {error}
        </p>
      )}
      <button type="submit" disabled={set.isPending} className={`${BUTTON} self-start`}>
        {set.isPending ? 'Setting…' : 'Set secret'}
      </button>
    </form>
  );
}

function SecretRow({ name, setAt }: { name: string; setAt: string }) {
  const { api } = useConsoleSession();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.deleteSecret(name),
    onSuccess: async () => {
      toast({ description: `${name} is deleted. The backend functions restarted without it.` });
      await queryClient.invalidateQueries({ queryKey: SECRETS_KEY });
    },
    onError: (failure) =>
      toast({ description: `Could not delete ${name}: ${failure.message}`, variant: 'destructive' }),
  });
  return (
    <tr className="border-t border-royal-700">
      <td className="py-2 pr-6 font-mono">{name}</td>
      <td className="py-2 pr-6">
        <time dateTime={setAt}>{new Date(setAt).toLocaleString()}</time>
      </td>
      <td className="py-2">
        {confirming ? (
          <span className="flex gap-2">
            <button
              type="button"
              className="rounded bg-red-200 px-3 py-1 text-red-950"
              onClick={() => remove.mutate()}
            >
              Yes, delete {name}
            </button>
            <button type="button" className="underline" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="underline"
            onClick={() => setConfirming(true)}
            aria-label={`Delete ${name}`}
          >
            Delete
          </button>
        )}
      </td>
    </tr>
  );
}

/** SecretsPage lists the app's secrets (names and when set, never values), and sets and deletes them. */
export function SecretsPage() {
  const { api } = useConsoleSession();
  const secrets = useQuery({ queryKey: SECRETS_KEY, queryFn: () => api.secrets() });
  return (
    <>
      <PageHeading>Secrets</PageHeading>
      <p className="mt-2 max-w-2xl text-gray-200">
        Backend functions read these as environment variables. Values are never shown again once set.{' '}
        {RESTARTS}
      </p>
      {secrets.isPending && <LoadingState what="the secrets" />}
      {secrets.isError && <ErrorState error={secrets.error} retry={() => void secrets.refetch()} />}
      {secrets.data?.length === 0 && <EmptyState>No secrets yet: set the first one below.</EmptyState>}
      {secrets.data && secrets.data.length > 0 && (
        <div className="mt-4 overflow-x-auto">
          <table className="min-w-[28rem] text-left">
            <caption className="sr-only">The app&apos;s secrets</caption>
            <thead>
              <tr>
                <th scope="col" className="pr-6 pb-1 text-gray-300">
                  Name
                </th>
                <th scope="col" className="pr-6 pb-1 text-gray-300">
                  Set
                </th>
                <th scope="col" className="pb-1 text-gray-300">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {secrets.data.map((secret) => (
                <SecretRow key={secret.name} name={secret.name} setAt={secret.set_at} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <SetSecretForm />
    </>
  );
}
