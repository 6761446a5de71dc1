// Streaming pushes go out at most every so often: the first at once, the last never lost.

/** throttled calls fn at once, then at most every ms (a last call is never lost). */
export function throttled(fn: () => void, ms: number) {
  let last = 0;
  let timer: NodeJS.Timeout | null = null;
  return {
    call() {
      if (timer) return;
      const wait = last + ms - Date.now();
      if (wait <= 0) {
        last = Date.now();
        fn();
        return;
      }
      timer = setTimeout(() => {
        timer = null;
        last = Date.now();
        fn();
      }, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
