import { requestedPathLabel } from '../page-contract/page-contract';

/** SECTION_IDS names every in-page section anchor of Home, in page order. */
export const SECTION_IDS = {
  about: 'about',
  kingdom: 'kingdom',
  buy: 'buy',
  roadmap: 'roadmap',
  community: 'community',
} as const;

export type SectionId = (typeof SECTION_IDS)[keyof typeof SECTION_IDS];

export type RouteName = 'home' | 'not-found';

/** matchRoute maps a pathname to a page: `/` and `/Home` (any case, optional trailing slash) are Home. */
export function matchRoute(pathname: string): RouteName {
  return pathname === '/' || /^\/home\/?$/i.test(pathname) ? 'home' : 'not-found';
}

/**
 * requestedPageName is how the 404 screen names a path: the page contract's requestedPathLabel, so the
 * screen shows after a client-side navigation what the server rendered into the prerendered 404 page.
 */
export function requestedPageName(pathname: string): string {
  return requestedPathLabel(pathname);
}
