import type { ReactNode } from 'react';

/**
 * AuthCard is the sign-in page's frame: the brand above one card on the royal backdrop. A hosted app's
 * page passes its name as brand (the server gives it a neutral look through `data-look`, see login.css).
 */
export function AuthCard({ children, brand }: { children: ReactNode; brand?: string | undefined }) {
  return (
    <main className="relative flex min-h-screen flex-col items-center justify-center overflow-hidden bg-royal-950 px-4 py-10 text-white">
      <div
        aria-hidden="true"
        className="pointer-events-none fixed inset-0 bg-[radial-gradient(50rem_30rem_at_85%_-10%,rgb(153_69_255/0.3),transparent_60%),radial-gradient(40rem_28rem_at_0%_110%,rgb(245_197_66/0.12),transparent_60%)]"
      />
      <div className="relative w-full max-w-sm">
        <a
          href="/"
          className="mx-auto mb-8 block w-fit rounded font-display text-3xl font-bold tracking-wide text-gold-gradient"
        >
          {brand ?? 'QUEEN SOLANA'}
        </a>
        <div className="rounded-2xl border border-gold-300/30 bg-royal-900/90 p-6 shadow-2xl shadow-black/40 sm:p-8">
          {children}
        </div>
        <p className="mt-6 text-center text-sm text-white/70">
          <a href="/" className="underline underline-offset-4 hover:text-gold-200">
            {brand ? `Back to ${brand}` : 'Back to the kingdom'}
          </a>
        </p>
      </div>
    </main>
  );
}
