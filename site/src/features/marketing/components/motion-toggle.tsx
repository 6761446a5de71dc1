import { PauseIcon, PlayIcon } from '../../../components/ui/icons';
import { MOTION_STORAGE_KEY } from '../../../config/motion';
import { useExternalStore } from '../../../lib/use-external-store';

// The paused state lives on <html data-motion="paused"> (set before first paint by an inline script in
// index.html) so CSS can stop every animation at once; this button flips it and remembers the choice.

function isPaused() {
  return document.documentElement.dataset.motion === 'paused';
}

const listeners = new Set<() => void>();

function setPaused(paused: boolean) {
  if (paused) document.documentElement.dataset.motion = 'paused';
  else delete document.documentElement.dataset.motion;
  // CSS pauses the stylesheet's loops; script-driven ones (the particles) are paused through the API.
  for (const animation of document.getAnimations()) {
    if (paused) animation.pause();
    else if (animation.playState === 'paused') animation.play();
  }
  try {
    localStorage.setItem(MOTION_STORAGE_KEY, paused ? 'paused' : 'running');
  } catch {
    // private mode: the choice lasts for this page only
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** MotionToggle is the visible control that pauses and resumes all animation (WCAG 2.2.2). */
export function MotionToggle() {
  // Prerendered unpaused: a visitor who paused sees the control turn once the page is live.
  const paused = useExternalStore(subscribe, isPaused, () => false);
  return (
    <button
      type="button"
      aria-pressed={paused}
      onClick={() => setPaused(!paused)}
      className="fixed bottom-4 left-4 z-40 inline-flex min-h-11 items-center gap-2 rounded-full border border-white/20 bg-royal-950/90 px-4 text-sm font-medium text-white shadow-lg backdrop-blur hover:border-gold-300/70"
    >
      {paused ? <PlayIcon className="h-4 w-4" /> : <PauseIcon className="h-4 w-4" />}
      {paused ? 'Play animations' : 'Pause animations'}
    </button>
  );
}
