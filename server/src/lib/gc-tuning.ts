import { setFlagsFromString } from 'node:v8';

// The server's objects are request-scoped: a list's rows, a body, an answer. V8's allocation-site
// pretenuring watches which allocation sites' objects survive young-generation collections and then
// allocates everything from such a site in the old generation. One bulk insert (1,000 rows the driver
// built at the same site as every list's rows, kept while they are inserted and announced) was enough:
// afterwards each uncached list's rows went straight to the old generation, the scavenges that freed them
// took 8–9 ms instead of 1–2, and the garbage collector took 15% of the CPU instead of 3%
// (bench:list-uncached seeds through the server, as an app's import would). Long-lived objects (sockets,
// cached reads) still reach the old generation, after surviving two scavenges.

/** GC_FLAGS are the V8 flags the server runs with. */
export const GC_FLAGS = ['--no-allocation-site-pretenuring'];

/** tuneGarbageCollector sets GC_FLAGS; call it once, at start-up. */
export function tuneGarbageCollector(): void {
  for (const flag of GC_FLAGS) setFlagsFromString(flag);
}
