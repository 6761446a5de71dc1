import type { ReactNode } from 'react';
import type { SectionId } from '../../../config/paths';

interface Props {
  id: SectionId;
  eyebrow: string;
  title: string;
  intro?: string;
  children: ReactNode;
}

/** HomeSection is one titled Home section: an anchor target with eyebrow, heading, optional intro. */
export function HomeSection({ id, eyebrow, title, intro, children }: Props) {
  const titleId = `${id}-title`;
  return (
    <section id={id} aria-labelledby={titleId} className="px-4 py-20 sm:px-6">
      <div className="mx-auto mb-12 max-w-2xl text-center">
        <p className="mb-3 text-xs font-bold tracking-[0.35em] text-sol-green uppercase">{eyebrow}</p>
        <h2 id={titleId} className="font-display text-gold-gradient text-4xl font-black sm:text-5xl">
          {title}
        </h2>
        {intro && <p className="mt-4 text-lg text-white/80">{intro}</p>}
      </div>
      {children}
    </section>
  );
}
