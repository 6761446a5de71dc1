import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConsoleDialog } from '../../components/console-dialog';
import { useConsoleSession } from '../../components/console-context';
import { ErrorState, LoadingState } from '../../components/page-states';
import { fetchCallOutput, type FunctionCall } from './logs-api';

/** CallOutput is a call's "Output" button and the dialog with its redacted output, read on opening. */
export function CallOutput({ call }: { call: FunctionCall }) {
  const { api } = useConsoleSession();
  const [open, setOpen] = useState(false);
  const output = useQuery({
    queryKey: ['console', 'logs', 'output', call.id],
    queryFn: () => fetchCallOutput(api, call.id),
    enabled: open,
  });
  return (
    <ConsoleDialog
      trigger={
        <button
          type="button"
          className="underline"
          aria-label={`Output of ${call.function} at ${call.created_date}`}
        >
          Output
        </button>
      }
      title={`${call.function}: status ${call.status}`}
      description={`Logged ${new Date(call.created_date).toLocaleString()}, ${call.duration_ms} ms, request ${call.request_id ?? 'none'}. Secrets were redacted before the output was stored.`}
      open={open}
      onOpenChange={setOpen}
      closeLabel="Close"
    >
      {output.isPending && <LoadingState what="the output" />}
      {output.isError && <ErrorState error={output.error} retry={() => void output.refetch()} />}
      {output.data && output.data.output.length === 0 && <p className="mt-4 text-gray-300">No output.</p>}
      {output.data && output.data.output.length > 0 && (
        <pre
          aria-label="Output"
          tabIndex={0}
          className="mt-4 max-h-[50vh] overflow-auto rounded bg-black/50 p-3 text-sm whitespace-pre-wrap"
        >
          {output.data.output.map((line, index) => (
            <span key={index} className={line.stream === 'stderr' ? 'block text-red-200' : 'block'}>
              {line.line}
            </span>
          ))}
        </pre>
      )}
      {call.output_dropped > 0 && (
        <p className="mt-2 text-gray-300">{call.output_dropped} more lines were not kept.</p>
      )}
    </ConsoleDialog>
  );
}
