import { STATIC_SECTIONS, type StaticSectionId } from '../static-sections';

const islands = new Map<string, HTMLElement>();
const prerendered = new Map<string, string>();

/**
 * captureStaticIslands remembers the prerendered element of every static island before React takes over.
 * Their HTML is read only if an island is rendered afresh (a page rendered behind the spinner, or Home
 * mounted again): serialising every section up front cost the hydration task up to ~7 ms. An island's
 * element keeps its children when it leaves the page, so its HTML can still be read then.
 */
export function captureStaticIslands(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-static-island]')) {
    islands.set(element.dataset.staticIsland ?? '', element);
  }
}

function prerenderedHtml(id: string): string {
  let html = prerendered.get(id);
  if (html === undefined) {
    html = islands.get(id)?.innerHTML ?? '';
    prerendered.set(id, html);
  }
  return html;
}

/**
 * StaticIsland renders a static section where pages are rendered, and in the production browser keeps the
 * section's prerendered HTML as it is: no JavaScript for it, nothing to hydrate (partial hydration).
 */
export function StaticIsland({ id, className }: { id: StaticSectionId; className?: string }) {
  const Section = STATIC_SECTIONS?.[id];
  if (Section) {
    return (
      <div data-static-island={id} className={className}>
        <Section />
      </div>
    );
  }
  // A getter: hydration never reads `__html` (the prerendered children stay), so nothing is serialised then.
  const html = {
    get __html() {
      return prerenderedHtml(id);
    },
  };
  return <div data-static-island={id} className={className} dangerouslySetInnerHTML={html} />;
}
