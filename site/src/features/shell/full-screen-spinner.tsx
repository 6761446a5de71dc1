/** FullScreenSpinner is shown while the app's settings or the visitor's access are still unknown. */
export function FullScreenSpinner() {
  return (
    <div className="fixed inset-0 flex items-center justify-center bg-royal-950" role="status">
      <div className="h-8 w-8 animate-spin rounded-full border-4 border-white/20 border-t-gold-300" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}
