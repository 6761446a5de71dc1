import type { ReactNode } from 'react';
import { FIELD } from '../../components/sign-in-screen';
import type { FieldProblem, FormField, FormValues } from './schema-form';

const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', url: 'url' };
const HINTS: Partial<Record<FormField['kind'], string>> = {
  'string-list': 'One per line.',
  json: 'JSON.',
  integer: 'A whole number.',
};

/** inputIdOf is the id of the input for path inside the form whose ids start with base. */
export const inputIdOf = (base: string, path: string) => `${base}-${path.replace(/[^\w-]/g, '_')}`;

interface FieldsProps {
  fields: FormField[];
  values: FormValues;
  problems: FieldProblem[];
  idBase: string;
  onChange: (path: string, value: string | boolean) => void;
}

function Described({
  id,
  hint,
  problem,
  children,
}: {
  id: string;
  hint: string | undefined;
  problem: FieldProblem | undefined;
  children: ReactNode;
}) {
  return (
    <>
      {children}
      {hint && (
        <span id={`${id}-hint`} className="text-sm text-gray-300">
          {hint}
        </span>
      )}
      {problem && (
        <span id={`${id}-error`} className="text-sm text-red-200">
          {problem.message}
        </span>
      )}
    </>
  );
}

function FieldInput({ field, props }: { field: FormField; props: FieldsProps }) {
  const id = inputIdOf(props.idBase, field.path);
  const problem = props.problems.find((p) => p.path === field.path);
  const hint = field.description ?? HINTS[field.kind];
  const describedBy = [hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  const value = props.values[field.path];
  const common = {
    id,
    name: field.path,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': describedBy || undefined,
    'aria-required': field.required || undefined,
  };
  const text = typeof value === 'string' ? value : '';
  const set = (next: string | boolean) => props.onChange(field.path, next);
  const label = (
    <label htmlFor={id} className="font-medium">
      {field.label}
      {field.required && <span aria-hidden="true"> *</span>}
    </label>
  );
  if (field.kind === 'boolean') {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <input {...common} type="checkbox" checked={value === true} onChange={(e) => set(e.target.checked)} />
        <Described id={id} hint={hint} problem={problem}>
          {label}
        </Described>
      </div>
    );
  }
  let input: ReactNode;
  if (field.kind === 'enum') {
    input = (
      <select {...common} className={FIELD} value={text} onChange={(e) => set(e.target.value)}>
        <option value="">(none)</option>
        {field.options?.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'string-list' || field.kind === 'json') {
    input = (
      <textarea
        {...common}
        rows={field.kind === 'json' ? 4 : 3}
        spellCheck={false}
        className={`${FIELD} ${field.kind === 'json' ? 'font-mono text-sm' : ''}`}
        value={text}
        onChange={(e) => set(e.target.value)}
      />
    );
  } else {
    const type =
      field.kind === 'number' || field.kind === 'integer'
        ? 'number'
        : field.kind === 'date'
          ? 'date'
          : field.kind === 'date-time'
            ? 'datetime-local'
            : (INPUT_TYPES[field.format ?? ''] ?? 'text');
    input = (
      <input
        {...common}
        type={type}
        step={field.kind === 'number' ? 'any' : undefined}
        className={FIELD}
        value={text}
        onChange={(e) => set(e.target.value)}
      />
    );
  }
  return (
    <div className="flex flex-col gap-1">
      {label}
      <Described id={id} hint={hint} problem={problem}>
        {input}
      </Described>
    </div>
  );
}

/** SchemaFormFields renders the form's fields: each input labelled, its hint and error tied to it. */
export function SchemaFormFields(props: FieldsProps) {
  return (
    <div className="flex flex-col gap-4">
      {props.fields.map((field) =>
        field.fields ? (
          <fieldset key={field.path} className="rounded border border-royal-700 p-3">
            <legend className="px-1 font-medium">{field.label}</legend>
            <SchemaFormFields {...props} fields={field.fields} />
          </fieldset>
        ) : (
          <FieldInput key={field.path} field={field} props={props} />
        ),
      )}
    </div>
  );
}
