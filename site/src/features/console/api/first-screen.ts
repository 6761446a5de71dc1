/**
 * FIRST_SCREEN_FRESH_MS keeps an answer prefetched while the session was checked from being asked again
 * when the page mounts a moment later (changes refetch explicitly).
 */
export const FIRST_SCREEN_FRESH_MS = 5_000;
