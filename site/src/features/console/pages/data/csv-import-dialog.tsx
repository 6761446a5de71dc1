import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { toast } from '../../../../components/ui/use-toast';
import type { ImportOutcome } from '../../api/records-api';
import { useConsoleSession } from '../../components/console-context';
import { BUTTON, FIELD } from '../../components/sign-in-screen';
import type { ConsoleEntity } from './console-entity';
import { csvWithoutRows, parseCsv } from './csv-text';
import { ModalDialog, SECONDARY } from './modal-dialog';

// CSV import through the entity import route (the SDK's importEntities): all or nothing on the server. A
// refused file comes back with its per-row report; when the report is whole, the rows without problems
// can be sent again on their own.

type Refused = Extract<ImportOutcome, { ok: false }> & { file: File; rows: number };

function ProblemReport({ refused }: { refused: Refused }) {
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <caption className="mb-2 text-left text-gray-200">
          {refused.count} {refused.count === 1 ? 'problem' : 'problems'} in the file (row 0 is the header)
          {refused.count > refused.problems.length ? `; the first ${refused.problems.length} are listed` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col" className="pr-4 text-gray-300">
              Row
            </th>
            <th scope="col" className="pr-4 text-gray-300">
              Field
            </th>
            <th scope="col" className="text-gray-300">
              Message
            </th>
          </tr>
        </thead>
        <tbody>
          {refused.problems.map((problem, index) => (
            <tr key={index} className="border-t border-royal-700">
              <td className="py-1 pr-4">{problem.row}</td>
              <td className="py-1 pr-4 font-mono">{problem.field ?? '—'}</td>
              <td className="py-1">{problem.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** badRowsOf is the data rows a whole report names, or null when they cannot all be known (or the header is bad). */
function badRowsOf(refused: Refused): Set<number> | null {
  if (refused.count > refused.problems.length || refused.problems.some((p) => p.row === 0)) return null;
  return new Set(refused.problems.map((problem) => problem.row));
}

/** CsvImportDialog picks a CSV file, uploads it with progress, and shows the server's per-row report. */
export function CsvImportDialog(props: {
  entity: ConsoleEntity;
  open: boolean;
  onClose: () => void;
  onImported: () => void;
}) {
  const { api } = useConsoleSession();
  const inputId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: async (file: File) => {
      setProgress(0);
      return { file, outcome: await api.records.importFile(props.entity.name, file, setProgress) };
    },
    onSuccess: async ({ file, outcome }) => {
      setProgress(null);
      if (outcome.ok) {
        setRefused(null);
        toast({ description: `Imported ${outcome.imported} ${props.entity.name} records.` });
        props.onImported();
        props.onClose();
        return;
      }
      const rows = Math.max(0, parseCsv(await file.text()).length - 1);
      setRefused({ ...outcome, file, rows });
    },
    onError: (failure) => {
      setProgress(null);
      setError(failure.message);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get('file');
    setError(null);
    setRefused(null);
    if (file instanceof File && file.size > 0) upload.mutate(file);
    else setError('Choose a CSV file first.');
  }

  async function importTheRest(report: Refused, bad: Set<number>) {
    const text = csvWithoutRows(await report.file.text(), bad);
    setRefused(null);
    upload.mutate(new File([text], report.file.name, { type: 'text/csv' }));
  }

  const bad = refused ? badRowsOf(refused) : null;
  const good = refused && bad ? refused.rows - bad.size : 0;
  return (
    <ModalDialog open={props.open} onClose={props.onClose} title={`Import CSV into ${props.entity.name}`}>
      <p className="mt-2 text-gray-200">
        The header row names the fields; each row is checked against the schema and nothing is stored unless
        every row passes. Columns id and the dates are ignored, so an export can be imported again.
      </p>
      <form onSubmit={submit} className="mt-4 flex flex-col gap-3">
        <label htmlFor={inputId}>CSV file</label>
        <input id={inputId} name="file" type="file" accept=".csv,text/csv" className={FIELD} />
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className={SECONDARY} onClick={props.onClose}>
            Close
          </button>
          <button type="submit" className={BUTTON} disabled={upload.isPending}>
            {upload.isPending ? 'Importing…' : 'Import'}
          </button>
        </div>
      </form>
      <div role="status" className="mt-3">
        {progress !== null && (
          <>
            <progress value={progress} max={1} aria-label="Upload progress" className="w-full" />
            <p>
              {progress < 1
                ? `Uploading… ${Math.round(progress * 100)}%`
                : 'Uploaded: checking and storing the records…'}
            </p>
          </>
        )}
      </div>
      {error && (
        <p role="alert" className="mt-3 text-red-200">
          {error}
        </p>
      )}
      {refused && (
        <div role="alert" className="mt-3">
          <p className="text-red-100">Nothing was imported: {refused.message}</p>
        </div>
      )}
      {refused && <ProblemReport refused={refused} />}
      {refused && bad && good > 0 && (
        <button type="button" className={`${BUTTON} mt-4`} onClick={() => void importTheRest(refused, bad)}>
          Import the {good} {good === 1 ? 'row' : 'rows'} without problems
        </button>
      )}
    </ModalDialog>
  );
}
