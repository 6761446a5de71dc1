/**
 * afterPaintScripts lists the paths Home's inline loader (site/scripts/build-steps.ts, deferEntryScript)
 * asks for after the first paint: each created script's `src` and module preload's `href`.
 */
export function afterPaintScripts(html: string): string[] {
  return [...html.matchAll(/\.(?:src|href)=["']([^"']+\.js)["']/g)]
    .map((match) => match[1] ?? '')
    .filter(Boolean);
}
