import { useProviderLinks } from '../lib/provider-links';

/**
 * ProviderButtons are the "Continue with …" links of the providers the app enables, then an "or" before the
 * email form; nothing when none is enabled. Plain links: they work before hydration and with a keyboard.
 */
export function ProviderButtons() {
  const links = useProviderLinks();
  if (links.length === 0) return null;
  return (
    <>
      <ul className="flex flex-col gap-3" aria-label="Other ways to sign in">
        {links.map((link) => (
          <li key={link.provider}>
            <a
              href={link.href}
              data-provider={link.provider}
              className="flex min-h-11 w-full items-center justify-center rounded-full border border-gold-300/50 bg-white/5 px-5 py-2.5 font-semibold text-white hover:border-gold-200 hover:bg-white/10"
            >
              {link.label}
            </a>
          </li>
        ))}
      </ul>
      <div className="my-6 flex items-center gap-3 text-sm text-white/80">
        <span aria-hidden="true" className="h-px flex-1 bg-white/25" />
        or
        <span aria-hidden="true" className="h-px flex-1 bg-white/25" />
      </div>
    </>
  );
}
