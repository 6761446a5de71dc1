import { useMutation } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { toast } from '../../../../components/ui/use-toast';
import { RecordWriteError } from '../../api/records-api';
import { useConsoleSession } from '../../components/console-context';
import { BUTTON } from '../../components/sign-in-screen';
import type { ConsoleEntity } from './console-entity';
import { JsonEditor } from './json-editor';
import { DANGER, ModalDialog, SECONDARY } from './modal-dialog';
import { editableOf, jsonBodyOf } from './record-json';
import {
  formFieldsOf,
  formValuesOf,
  recordFromForm,
  type FieldProblem,
  type FormValues,
} from './schema-form';
import { SchemaFormFields } from './schema-form-fields';
import { messageOfBody, serverFieldProblem } from './server-field-error';

export interface RecordEditorProps {
  entity: ConsoleEntity;
  record: Record<string, unknown> | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** onSaved is told the record as the server stored it, or null after a delete. */
  onSaved: (saved: Record<string, unknown> | null) => void;
}

type Tab = 'form' | 'json';

/** RecordEditor is the record dialog: a new record when record is null, else that record's edit. */
export function RecordEditor(props: RecordEditorProps) {
  const id = typeof props.record?.id === 'string' ? props.record.id : null;
  return (
    <ModalDialog
      open={props.open}
      onClose={() => props.onOpenChange(false)}
      title={id ? `Edit ${props.entity.name} record ${id}` : `New ${props.entity.name} record`}
    >
      <EditorBody key={id ?? 'new'} {...props} id={id} />
    </ModalDialog>
  );
}

function EditorBody({
  entity,
  record,
  onOpenChange,
  onSaved,
  id,
}: RecordEditorProps & { id: string | null }) {
  const { api } = useConsoleSession();
  const base = useId();
  const fields = useMemo(() => formFieldsOf(entity.schema), [entity.schema]);
  const [tab, setTab] = useState<Tab>('form');
  const [values, setValues] = useState<FormValues>(() => formValuesOf(fields, record, entity.schema));
  const [jsonText, setJsonText] = useState(() => JSON.stringify(editableOf(record), null, 2));
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const close = () => onOpenChange(false);
  const done = (message: string, saved: Record<string, unknown> | null) => {
    toast({ description: message });
    onSaved(saved);
    close();
  };
  const failed = (failure: Error) => {
    const body = failure instanceof RecordWriteError ? failure.body : null;
    const onField = serverFieldProblem(body, fields);
    setProblems(onField ? [onField] : []);
    setError(messageOfBody(body) ?? failure.message);
  };
  const save = useMutation({
    mutationFn: (data: Record<string, unknown>) =>
      id ? api.records.update(entity.name, id, data) : api.records.create(entity.name, data),
    onSuccess: (saved) => done(id ? `Record ${id} saved.` : `Record ${String(saved.id)} created.`, saved),
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => api.records.remove(entity.name, id ?? ''),
    onSuccess: () => done(`Record ${id} deleted.`, null),
    onError: failed,
  });

  /** bodyNow is the record body from the open tab, or null after saying what is wrong. */
  function bodyNow(): Record<string, unknown> | null {
    if (tab === 'json') {
      const parsed = jsonBodyOf(jsonText, record);
      if (!parsed.ok) setError(parsed.message);
      return parsed.ok ? parsed.data : null;
    }
    const built = recordFromForm(fields, values, record);
    setProblems(built.problems);
    if (built.problems.length) setError('Some fields need another value: see the messages below them.');
    return built.problems.length ? null : built.data;
  }

  function switchTo(next: Tab) {
    if (next === tab) return;
    setError(null);
    if (next === 'json') {
      const body = bodyNow();
      if (!body) return;
      setJsonText(JSON.stringify({ ...editableOf(record), ...body }, null, 2));
    } else {
      const parsed = jsonBodyOf(jsonText, null);
      if (!parsed.ok) return setError(parsed.message);
      setValues(formValuesOf(fields, parsed.data, entity.schema));
    }
    setProblems([]);
    setTab(next);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const body = bodyNow();
    if (body) save.mutate(body);
  }

  const tabId = (name: Tab) => `${base}-tab-${name}`;
  const panelId = `${base}-panel`;
  const errorId = `${base}-error`;
  return (
    <form noValidate onSubmit={submit} className="mt-4 flex flex-col gap-4">
      <div role="tablist" aria-label="Edit as" className="flex gap-2">
        {(['form', 'json'] as const).map((name) => (
          <button
            key={name}
            id={tabId(name)}
            type="button"
            role="tab"
            aria-selected={tab === name}
            aria-controls={panelId}
            className={`rounded px-3 py-1 ${tab === name ? 'bg-royal-700 font-semibold text-gold-100' : 'underline'}`}
            onClick={() => switchTo(name)}
          >
            {name === 'form' ? 'Form' : 'JSON'}
          </button>
        ))}
      </div>
      {error && (
        <p id={errorId} role="alert" className="rounded border border-red-300 bg-red-950/60 p-3 text-red-100">
          {error}
        </p>
      )}
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(tab)}>
        {tab === 'form' ? (
          <SchemaFormFields
            fields={fields}
            values={values}
            problems={problems}
            idBase={base}
            onChange={(path, value) => setValues((current) => ({ ...current, [path]: value }))}
          />
        ) : (
          <JsonEditor
            value={jsonText}
            onChange={setJsonText}
            label="Record JSON"
            describedBy={error ? errorId : undefined}
            invalid={Boolean(error)}
          />
        )}
      </div>
      {confirmingDelete ? (
        <div
          className="flex flex-wrap items-center justify-end gap-3"
          role="group"
          aria-label="Confirm delete"
        >
          <p>Delete this record? This cannot be undone.</p>
          <button type="button" className={SECONDARY} onClick={() => setConfirmingDelete(false)}>
            Keep it
          </button>
          <button
            type="button"
            className={DANGER}
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            Yes, delete record
          </button>
        </div>
      ) : (
        <div className="flex flex-wrap justify-end gap-3">
          {id && (
            <button
              type="button"
              className={`${SECONDARY} mr-auto`}
              onClick={() => setConfirmingDelete(true)}
            >
              Delete record
            </button>
          )}
          <button type="button" className={SECONDARY} onClick={close}>
            Cancel
          </button>
          <button type="submit" className={BUTTON} disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
      )}
    </form>
  );
}
