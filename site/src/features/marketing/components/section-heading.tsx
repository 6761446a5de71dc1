/** SectionHeading is the eyebrow + title + optional intro shared by every Home section. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  intro,
}: {
  id: string;
  eyebrow: string;
  title: string;
  intro?: string;
}) {
  return (
    <div className="mx-auto mb-12 max-w-2xl text-center">
      <p className="mb-3 text-xs font-bold tracking-[0.35em] text-sol-green uppercase">{eyebrow}</p>
      <h2 id={id} className="font-display text-gold-gradient text-4xl font-black sm:text-5xl">
        {title}
      </h2>
      {intro && <p className="mt-4 text-lg text-white/80">{intro}</p>}
    </div>
  );
}
