/** FormError shows a failed action's message inline and announces it (role="alert"). */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="mb-4 rounded-lg border border-red-300/50 bg-red-950/70 px-3.5 py-2.5 text-sm text-red-100"
    >
      {message}
    </p>
  );
}

/** FormNotice shows a calm confirmation (role="status", announced politely). */
export function FormNotice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="status"
      className="mb-4 rounded-lg border border-sol-green/40 bg-emerald-950/70 px-3.5 py-2.5 text-sm text-emerald-100"
    >
      {message}
    </p>
  );
}
