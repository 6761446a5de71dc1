import { Link, Outlet } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useConsoleSession } from './console-context';

/** CONSOLE_PAGES are the navigation's links, in order, named as the issue names them. */
export const CONSOLE_PAGES = [
  { to: '/overview', label: 'Overview' },
  { to: '/users', label: 'Users' },
  { to: '/data', label: 'Data' },
  { to: '/logs', label: 'Logs' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/functions', label: 'Functions' },
  { to: '/agents', label: 'Agents' },
  { to: '/integrations', label: 'Integrations' },
  { to: '/secrets', label: 'Secrets' },
  { to: '/settings', label: 'Settings' },
] as const;

/** ConsoleLayout is the console's frame: a skip link, the navigation (a menu on narrow screens), the page. */
export function ConsoleLayout() {
  const { user, signOut } = useConsoleSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const navId = useId();

  return (
    <div className="min-h-screen md:flex">
      <a href="#console-main" className="sr-only focus:not-sr-only focus:absolute focus:p-2">
        Skip to content
      </a>
      <header className="border-b border-royal-700 bg-royal-900 md:w-56 md:border-r md:border-b-0">
        <div className="flex items-center justify-between p-4">
          <p className="font-semibold text-gold-100">Console</p>
          <button
            type="button"
            className="rounded border border-royal-600 px-3 py-1 md:hidden"
            aria-expanded={menuOpen}
            aria-controls={navId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
        </div>
        <nav
          id={navId}
          aria-label="Console"
          className={`${menuOpen ? 'block' : 'hidden'} px-2 pb-4 md:block`}
        >
          <ul className="flex flex-col gap-1">
            {CONSOLE_PAGES.map((page) => (
              <li key={page.to}>
                <Link
                  to={page.to}
                  onClick={() => setMenuOpen(false)}
                  className="block rounded px-3 py-2 text-gray-200 hover:bg-royal-700"
                  activeProps={{ className: 'bg-royal-700 font-semibold text-gold-100' }}
                >
                  {page.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="mt-6 border-t border-royal-700 px-3 pt-4 text-sm text-gray-300">
            <p className="break-all">{user.email}</p>
            <button type="button" onClick={signOut} className="mt-2 underline">
              Sign out
            </button>
          </div>
        </nav>
      </header>
      <main id="console-main" className="min-w-0 flex-1 p-4 md:p-8">
        <Outlet />
      </main>
    </div>
  );
}
