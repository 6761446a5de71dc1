import { requestedPageName } from '../../config/paths';
import { useHydratedMarker } from '../../lib/use-hydrated-marker';
import { useCurrentUser } from './use-current-user';

/** PageNotFound is the template's 404 screen: it echoes the path and shows admins an Admin Note. */
export function PageNotFound({ pathname }: { pathname: string }) {
  useHydratedMarker();
  const pageName = requestedPageName(pathname);
  const { data, isFetched } = useCurrentUser();
  const isAdmin = isFetched && data?.isAuthenticated === true && data.user?.role === 'admin';

  return (
    <main className="flex min-h-screen items-center justify-center bg-royal-950 p-6 text-white">
      <div className="w-full max-w-md text-center">
        <p className="text-7xl font-light text-white/70" aria-hidden="true">
          404
        </p>
        <div className="mx-auto my-6 h-0.5 w-16 bg-gold-300/60" />
        <h1 className="mb-3 text-2xl font-medium">Page Not Found</h1>
        <p className="mb-8 leading-relaxed text-white/80">
          The page &quot;<span className="font-medium break-all text-gold-200">{pageName}</span>&quot; could
          not be found in this application.
        </p>
        {isAdmin && (
          <div className="mb-8 rounded-lg border border-orange-300/40 bg-orange-950/60 p-4 text-left">
            <div className="flex items-start gap-3">
              <span aria-hidden="true" className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-orange-400" />
              <div>
                <p className="mb-1 text-sm font-semibold text-orange-200">Admin Note</p>
                <p className="text-sm leading-relaxed text-orange-100">
                  This could mean that the AI hasn&apos;t implemented this page yet. Ask it to implement it in
                  the chat.
                </p>
              </div>
            </div>
          </div>
        )}
        <button
          type="button"
          onClick={() => {
            window.location.href = '/';
          }}
          className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-gold-300/50 bg-royal-800 px-5 py-2.5 text-sm font-semibold text-white hover:bg-royal-700"
        >
          <svg
            aria-hidden="true"
            className="h-4 w-4"
            fill="none"
            viewBox="0 0 24 24"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path
              strokeLinecap="round"
              strokeLinejoin="round"
              d="m3 12 2-2m0 0 7-7 7 7M5 10v10a1 1 0 0 0 1 1h3m10-11 2 2m-2-2v10a1 1 0 0 1-1 1h-3m-6 0a1 1 0 0 0 1-1v-4a1 1 0 0 1 1-1h2a1 1 0 0 1 1 1v4a1 1 0 0 0 1 1m-6 0h6"
            />
          </svg>
          Go Home
        </button>
      </div>
    </main>
  );
}
