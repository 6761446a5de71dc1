import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../../../components/ui/use-toast';
import { useConsoleSession } from '../../components/console-context';
import { BUTTON } from '../../components/sign-in-screen';
import type { ConsoleEntity } from './console-entity';
import { CsvImportDialog } from './csv-import-dialog';
import { ConfirmDialog, SECONDARY } from './modal-dialog';
import { RecordEditor } from './record-editor';
import { downloadText, exportColumnsOf, exportCsvOf, exportFileName, fetchAllRecords } from './record-export';

export interface RecordToolbarProps {
  entity: ConsoleEntity;
  selectedIds: string[];
  filter: Record<string, unknown> | null;
  viewAs: string | null;
  onChanged: () => void;
}

const plural = (count: number) => `${count} ${count === 1 ? 'record' : 'records'}`;

/**
 * RecordToolbar is the Data grid's actions: a new record, delete the selected ones (after a confirmation
 * naming the count), export the filtered records as CSV, and import a CSV. Viewing as a user is read-only:
 * it then shows nothing.
 */
export function RecordToolbar({ entity, selectedIds, filter, viewAs, onChanged }: RecordToolbarProps) {
  const { api } = useConsoleSession();
  const [creating, setCreating] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [importing, setImporting] = useState(false);
  const [exported, setExported] = useState<number | null>(null);
  const count = selectedIds.length;

  const removeSelected = useMutation({
    mutationFn: () => api.records.removeMany(entity.name, selectedIds),
    onSuccess: (deleted) => {
      setConfirming(false);
      toast({ description: `Deleted ${plural(deleted)}.` });
      onChanged();
    },
    onError: (failure) =>
      toast({ description: `Could not delete: ${failure.message}`, variant: 'destructive' }),
  });
  const exportCsv = useMutation({
    mutationFn: () => fetchAllRecords(api.records, entity.name, filter, setExported),
    onSuccess: ({ records, cut }) => {
      setExported(null);
      downloadText(
        exportCsvOf(exportColumnsOf(entity), records),
        exportFileName(entity.name),
        'text/csv;charset=utf-8',
      );
      toast({
        description: cut
          ? `Exported the first ${plural(records.length)}: an export stops there.`
          : `Exported ${plural(records.length)}.`,
      });
    },
    onError: (failure) => {
      setExported(null);
      toast({ description: `Could not export: ${failure.message}`, variant: 'destructive' });
    },
  });

  if (viewAs !== null) return null;
  return (
    <div
      role="group"
      aria-label={`${entity.name} records`}
      className="mt-4 flex flex-wrap items-center gap-3"
    >
      <button type="button" className={BUTTON} onClick={() => setCreating(true)}>
        New record
      </button>
      <button type="button" className={SECONDARY} disabled={count === 0} onClick={() => setConfirming(true)}>
        Delete selected
      </button>
      <button
        type="button"
        className={SECONDARY}
        disabled={exportCsv.isPending}
        onClick={() => exportCsv.mutate()}
      >
        Export CSV
      </button>
      <button type="button" className={SECONDARY} onClick={() => setImporting(true)}>
        Import CSV
      </button>
      <span role="status" className="text-sm text-gray-300">
        {exported !== null ? `Exporting… ${plural(exported)} so far` : ''}
      </span>
      <RecordEditor
        entity={entity}
        record={null}
        open={creating}
        onOpenChange={setCreating}
        onSaved={onChanged}
      />
      <ConfirmDialog
        open={confirming}
        question={`Delete ${plural(count)}?`}
        detail={`The selected ${entity.name} ${count === 1 ? 'record is' : 'records are'} deleted for good.`}
        action={`Delete ${plural(count)}`}
        busy={removeSelected.isPending}
        onConfirm={() => removeSelected.mutate()}
        onCancel={() => setConfirming(false)}
      />
      <CsvImportDialog
        entity={entity}
        open={importing}
        onClose={() => setImporting(false)}
        onImported={onChanged}
      />
    </div>
  );
}
