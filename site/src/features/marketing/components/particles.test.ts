import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PARTICLE_COUNT, startParticles } from './particles';

let frames: FrameRequestCallback[] = [];
let clock = 0;

beforeEach(() => {
  frames = [];
  clock = 0;
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => undefined);
  // Each particle costs one millisecond of the frame's budget.
  vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1));
  // Reduced motion: happy-dom has no Element.animate, and the batching is the same either way.
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query) => ({ matches: query.includes('reduce') }) as MediaQueryList,
  );
});

afterEach(() => vi.restoreAllMocks());

function runNextFrame() {
  const next = frames.shift();
  next?.(clock);
}

it('starts the particles a few per frame, within the frame budget, until all are there', () => {
  const layer = document.createElement('div');
  startParticles(layer);
  expect(layer.children).toHaveLength(0);

  runNextFrame();
  const firstBatch = layer.children.length;
  expect(firstBatch).toBeGreaterThan(0);
  expect(firstBatch).toBeLessThan(8);

  let frameCount = 1;
  while (frames.length > 0) {
    runNextFrame();
    frameCount += 1;
  }
  expect(layer.querySelectorAll('.particle')).toHaveLength(PARTICLE_COUNT);
  expect(frameCount).toBeGreaterThan(PARTICLE_COUNT / 8);
});

it('adds at least one particle per frame even when the budget is already spent', () => {
  vi.spyOn(performance, 'now').mockImplementation(() => (clock += 100));
  const layer = document.createElement('div');
  startParticles(layer);
  runNextFrame();
  expect(layer.children).toHaveLength(1);
  runNextFrame();
  expect(layer.children).toHaveLength(2);
});

it('stops: the layer is emptied and no further batch is added', () => {
  const layer = document.createElement('div');
  const stop = startParticles(layer);
  runNextFrame();
  stop();
  expect(layer.children).toHaveLength(0);
});
