import { useId, type InputHTMLAttributes } from 'react';
import { PASSWORD_MIN_LENGTH } from '../lib/login-view';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  label: string;
  hint?: string;
}

/** TextField is a labelled input with an optional hint tied to it by aria-describedby. */
export function TextField({ label, hint, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-white/90">
        {label}
      </label>
      <input
        id={id}
        aria-describedby={hint ? hintId : undefined}
        className="block min-h-11 w-full rounded-lg border border-white/40 bg-royal-950/80 px-3.5 py-2 text-base text-white placeholder:text-white/50 focus-visible:border-gold-300"
        {...input}
      />
      {hint && (
        <p id={hintId} className="mt-1.5 text-xs text-white/70">
          {hint}
        </p>
      )}
    </div>
  );
}

type ValueFieldProps = Pick<TextFieldProps, 'value' | 'onChange'> & { label?: string };

/** NewPasswordField is a password being chosen: the platform's minimum length, announced as a hint. */
export function NewPasswordField({ label = 'New password', ...props }: ValueFieldProps) {
  return (
    <TextField
      label={label}
      type="password"
      name="new-password"
      autoComplete="new-password"
      required
      minLength={PASSWORD_MIN_LENGTH}
      hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      {...props}
    />
  );
}

/** EmailField is a required email address; autoComplete says whether it names an existing account. */
export function EmailField({
  label = 'Email',
  autoComplete = 'email',
  ...props
}: ValueFieldProps & { autoComplete?: 'email' | 'username' }) {
  return (
    <TextField label={label} type="email" name="email" autoComplete={autoComplete} required {...props} />
  );
}
