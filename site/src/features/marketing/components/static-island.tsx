import { STATIC_SECTIONS, type StaticSectionId } from '../static-sections';

const prerendered = new Map<string, string>();

/** captureStaticIslands remembers the prerendered HTML of every static island before React takes over. */
export function captureStaticIslands(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-static-island]')) {
    prerendered.set(element.dataset.staticIsland ?? '', element.innerHTML);
  }
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
  return (
    <div
      data-static-island={id}
      className={className}
      dangerouslySetInnerHTML={{ __html: prerendered.get(id) ?? '' }}
    />
  );
}
