// 80 particles whose loops cycle through the page's five durations (15 s, 8 s, 20 s, 4 s, 6 s).
// They are Web Animations on transform and opacity, so they run on the compositor. NB: CSS animations
// would fire `animationiteration` events, and because React listens for every event type, Chromium then
// restyles on the main thread at each of the ~10 loop restarts per second; script animations fire none.

export const PARTICLE_COUNT = 80;
export const LOOP_SECONDS = [15, 8, 20, 4, 6] as const;

const COLORS = ['#f5c542', '#ffe08a', '#9945ff', '#14f195', '#00c2ff'];

const DRIFT: Keyframe[] = [
  { transform: 'translate3d(0, 0, 0) scale(0.6)', opacity: 0 },
  { opacity: 0.75, offset: 0.2 },
  { opacity: 0.55, offset: 0.8 },
  { transform: 'translate3d(24px, -144px, 0) scale(1)', opacity: 0 },
];

function seededRandom(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
}

/**
 * FRAME_BUDGET_MS is the script time one frame may spend starting particles: all 80 at once held the main
 * thread ~20 ms (80 ms on a phone). A time budget, not a count, keeps each frame short on a slow phone too.
 */
const FRAME_BUDGET_MS = 3;

/**
 * startParticles fills layer with the particles and starts them, as many per frame as fit in the frame's
 * budget (still, under reduced motion; paused when the visitor paused animations). It returns a function
 * that removes them again.
 */
export function startParticles(layer: HTMLElement): () => void {
  const random = seededRandom(2026);
  const moving = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const animations: Animation[] = [];
  let index = 0;
  let frame = 0;
  const addParticle = (fragment: DocumentFragment, paused: boolean) => {
    const seconds = LOOP_SECONDS[index % LOOP_SECONDS.length] ?? 15;
    const size = `${(2 + random() * 4).toFixed(1)}px`;
    const particle = document.createElement('span');
    particle.className = 'particle';
    Object.assign(particle.style, {
      left: `${(random() * 100).toFixed(2)}%`,
      top: `${(random() * 100).toFixed(2)}%`,
      width: size,
      height: size,
      background: COLORS[index % COLORS.length],
    });
    fragment.append(particle);
    const delay = -random() * seconds * 1000;
    index += 1;
    if (!moving) return;
    const animation = particle.animate(DRIFT, {
      duration: seconds * 1000,
      delay,
      iterations: Infinity,
      easing: 'ease-in-out',
    });
    if (paused) animation.pause();
    animations.push(animation);
  };
  const addBatch = () => {
    // Read per batch: the visitor may pause while the later batches are still to come.
    const paused = document.documentElement.dataset.motion === 'paused';
    const fragment = document.createDocumentFragment();
    const started = performance.now();
    // At least one per frame, so the layer always fills.
    do addParticle(fragment, paused);
    while (index < PARTICLE_COUNT && performance.now() - started < FRAME_BUDGET_MS);
    layer.append(fragment);
    if (index < PARTICLE_COUNT) frame = requestAnimationFrame(addBatch);
  };
  layer.replaceChildren();
  // The first batch waits for a frame too: the module's evaluation and the first animation's setup are
  // long enough on their own.
  frame = requestAnimationFrame(addBatch);
  return () => {
    cancelAnimationFrame(frame);
    for (const animation of animations) {
      // Cancelling rejects `finished` with AbortError; browsers mark it handled, not every DOM does.
      animation.finished.catch(() => undefined);
      animation.cancel();
    }
    layer.replaceChildren();
  };
}
