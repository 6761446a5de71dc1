import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConsoleDialog } from '../../components/console-dialog';
import { useConsoleSession } from '../../components/console-context';
import { BUTTON, FIELD } from '../../components/sign-in-screen';
import { toast } from '../../../../components/ui/use-toast';
import { Section } from './integration-section';
import {
  bytesText,
  INTEGRATIONS_KEY,
  pruneFiles,
  type IntegrationsSummary,
  type PruneAnswer,
} from './integrations-api';

/** FilesSection shows where uploads live and what they weigh, and prunes the unreferenced ones. */
export function FilesSection({ files }: { files: IntegrationsSummary['files'] }) {
  const { api } = useConsoleSession();
  const [minAgeHours, setMinAgeHours] = useState(24);
  const dryRun = useMutation({ mutationFn: (hours: number) => pruneFiles(api, true, hours) });
  function list(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    dryRun.mutate(minAgeHours);
  }
  return (
    <Section id="integrations-files" title="File storage">
      <p className="mt-2">
        Storage <strong>{files.storage}</strong>: {files.files} files, {bytesText(files.bytes)}.
      </p>
      <form onSubmit={list} className="mt-3 flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1">
          Older than (hours)
          <input
            type="number"
            min={0}
            max={8760}
            step="any"
            required
            value={minAgeHours}
            onChange={(event) => {
              setMinAgeHours(Number(event.target.value));
              dryRun.reset();
            }}
            className={`${FIELD} w-32`}
          />
        </label>
        <button type="submit" disabled={dryRun.isPending} className={BUTTON}>
          {dryRun.isPending ? 'Looking…' : 'Find unreferenced files'}
        </button>
      </form>
      {dryRun.isError && (
        <p role="alert" className="mt-2 text-red-200">
          {dryRun.error.message}
        </p>
      )}
      {dryRun.data && <DryRunResult report={dryRun.data} onRemoved={() => dryRun.reset()} />}
    </Section>
  );
}

function DryRunResult({ report, onRemoved }: { report: PruneAnswer; onRemoved: () => void }) {
  if (report.count === 0) {
    return (
      <p role="status" className="mt-3">
        No unreferenced file older than {report.min_age_hours} hours
        {report.more ? ' among the oldest 1,000' : ''}.
      </p>
    );
  }
  return (
    <div role="region" aria-label="Unreferenced files" className="mt-3">
      <p role="status">
        {report.count} files no record mentions ({bytesText(report.bytes)})
        {report.more ? ' among the oldest 1,000 (run again after removing them)' : ''}
        {report.files.length < report.count ? `; the first ${report.files.length} are listed` : ''}.
      </p>
      <ul className="mt-2 max-h-64 overflow-y-auto text-sm">
        {report.files.map((file) => (
          <li key={file.key} className="break-all">
            {file.filename} · {bytesText(file.size)} · <code>{file.key}</code>
          </li>
        ))}
      </ul>
      <RemoveDialog report={report} onRemoved={onRemoved} />
    </div>
  );
}

function RemoveDialog({ report, onRemoved }: { report: PruneAnswer; onRemoved: () => void }) {
  const { api } = useConsoleSession();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => pruneFiles(api, false, report.min_age_hours),
    onSuccess: async (done) => {
      setOpen(false);
      toast({ description: `Removed ${done.count} files (${bytesText(done.bytes)}).` });
      onRemoved();
      await queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY });
    },
  });
  return (
    <ConsoleDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        remove.reset();
      }}
      title="Remove unreferenced files?"
      description={`The files no record mentions, older than ${report.min_age_hours} hours, are deleted for good (${report.count} found just now). This is written to the audit log.`}
      trigger={
        <button type="button" className={`${BUTTON} mt-3`}>
          Remove these files…
        </button>
      }
    >
      {remove.isError && (
        <p role="alert" className="mt-3 text-red-200">
          {remove.error.message}
        </p>
      )}
      <button
        type="button"
        onClick={() => remove.mutate()}
        disabled={remove.isPending}
        className="mt-4 rounded bg-red-200 px-4 py-2 font-semibold text-red-950 disabled:opacity-70"
      >
        {remove.isPending ? 'Removing…' : 'Remove'}
      </button>
    </ConsoleDialog>
  );
}
