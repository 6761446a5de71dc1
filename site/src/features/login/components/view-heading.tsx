import { useEffect, useRef, type ReactNode } from 'react';

interface ViewHeadingProps {
  title: string;
  /** focusOnShow moves focus here when the step appears after an action (not on first load). */
  focusOnShow: boolean;
  children?: ReactNode;
}

/** ViewHeading is each step's h1 and intro; it takes focus when the step replaces another. */
export function ViewHeading({ title, focusOnShow, children }: ViewHeadingProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnShow) heading.current?.focus();
  }, [focusOnShow]);

  return (
    <div className="mb-6">
      <h1 ref={heading} tabIndex={-1} className="font-display text-2xl font-semibold text-gold-100">
        {title}
      </h1>
      {children && <div className="mt-2 text-sm leading-relaxed text-white/80">{children}</div>}
    </div>
  );
}
