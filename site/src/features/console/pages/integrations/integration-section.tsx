import type { ReactNode } from 'react';

/** Section is one part of the Integrations page, named by its heading. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-6 rounded-lg border border-royal-700 p-4">
      <h2 id={id} className="text-lg font-semibold text-gold-100">
        {title}
      </h2>
      {children}
    </section>
  );
}
