import { memo } from 'react';

// 80 particles whose loops cycle through the page's five durations (15 s, 8 s, 20 s, 4 s, 6 s). Positions
// come from a fixed seed so prerendered HTML and hydration agree; CSS animates transform/opacity only.

export const PARTICLE_COUNT = 80;
export const LOOP_SECONDS = [15, 8, 20, 4, 6] as const;

function seededRandom(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
}

const COLORS = ['#f5c542', '#ffe08a', '#9945ff', '#14f195', '#00c2ff'];

const particles = (() => {
  const random = seededRandom(2026);
  return Array.from({ length: PARTICLE_COUNT }, (_, index) => {
    const duration = LOOP_SECONDS[index % LOOP_SECONDS.length] ?? 15;
    return {
      left: (random() * 100).toFixed(2),
      top: (random() * 100).toFixed(2),
      size: (2 + random() * 4).toFixed(1),
      delay: (-random() * duration).toFixed(2),
      duration,
      color: COLORS[index % COLORS.length],
    };
  });
})();

/** FloatingParticles is the decorative layer of 80 drifting sparks (hidden from assistive tech). */
export const FloatingParticles = memo(function FloatingParticles() {
  return (
    <div aria-hidden="true" className="particle-layer">
      {particles.map((particle, index) => (
        <span
          key={index}
          className="particle"
          style={{
            left: `${particle.left}%`,
            top: `${particle.top}%`,
            width: `${particle.size}px`,
            height: `${particle.size}px`,
            background: particle.color,
            animationDuration: `${particle.duration}s`,
            animationDelay: `${particle.delay}s`,
          }}
        />
      ))}
    </div>
  );
});
