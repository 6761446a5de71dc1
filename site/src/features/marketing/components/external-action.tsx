import type { ReactNode } from 'react';

interface Props {
  /** href is the configured URL; empty means "not announced yet". */
  href: string;
  /** label names the destination, e.g. "Telegram". */
  label: string;
  className: string;
  children: ReactNode;
}

/**
 * ExternalAction opens a configured URL in a new tab, or — when none is configured — is a visibly disabled
 * control announced as "coming soon" that says so when pressed (never a silent dead button): its
 * `data-coming-soon` is answered by the page's one listener (coming-soon.ts), so the button works in a
 * static island too.
 */
export function ExternalAction({ href, label, className, children }: Props) {
  if (href) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
        {children}
      </a>
    );
  }
  return (
    <button
      type="button"
      aria-disabled="true"
      aria-label={`${label} (coming soon)`}
      title={`${label}: coming soon`}
      data-coming-soon={label}
      className={`${className} cursor-not-allowed opacity-70`}
    >
      {children}
    </button>
  );
}
