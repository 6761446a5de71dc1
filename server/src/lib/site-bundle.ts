import { access, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { findAppAuthPages, NO_APP_AUTH_PAGES, type AppAuthPages } from './app-auth-pages';
import { BOOT_MARKER } from '../../../site/src/page-contract/page-contract';
import {
  BUILD_INFO_FILE,
  BuildInfoSchema,
  BUILT_PAGES,
  type BuildInfo,
} from '../../../site/src/page-contract/build-info';

export type { BuildInfo } from '../../../site/src/page-contract/build-info';

// The pages and build metadata are rendered from memory, never sent raw, nor their precompressed copies.
const PRIVATE_FILE = /(\.html|^build-info\.json)(\.gz|\.br)?$/i;

/** isPrivateSiteFile says a path of the build folder is internal: pages, build metadata and their copies. */
export function isPrivateSiteFile(pathName: string): boolean {
  return PRIVATE_FILE.test(posix.basename(posix.normalize(pathName)));
}

/**
 * SiteKind is what SITE_DIST holds: our own prerendered site (`site`, its pages carry the boot marker) or
 * any other app's build, such as a Base44 app's Vite `dist/` (`app`: a single-page app served as built).
 */
export type SiteKind = 'site' | 'app';

/** SiteBundle is the built site's HTML held in memory; `index` is null when the site was not built. */
export interface SiteBundle {
  root: string;
  kind: SiteKind;
  /** hasManifest says the build ships its own `/manifest.json` (else one is generated for an app). */
  hasManifest: boolean;
  index: string | null;
  notFound: string | null;
  /** login is the prerendered sign-in page (`/login`); null when the build has none. */
  login: string | null;
  buildInfo: BuildInfo | null;
  /** authPages are the sign-in pages a hosted app routes itself (none for our own site). */
  authPages: AppAuthPages;
  /** problems lists what is missing or malformed, for the start-up log. */
  problems: string[];
}

/** loadSiteBundle reads index.html, 404.html, login.html and build-info.json from the site build folder once. */
export async function loadSiteBundle(root: string): Promise<SiteBundle> {
  const problems: string[] = [];
  const readText = async (name: string): Promise<string | null> => {
    try {
      return await readFile(join(root, name), 'utf8');
    } catch {
      return null;
    }
  };
  const [index, notFound, login, buildInfoText, hasManifest] = await Promise.all([
    readText(BUILT_PAGES.home),
    readText(BUILT_PAGES.notFound),
    readText(BUILT_PAGES.login),
    readText(BUILD_INFO_FILE),
    access(join(root, 'manifest.json')).then(
      () => true,
      () => false,
    ),
  ]);
  if (index !== null && !index.includes(BOOT_MARKER)) {
    // Another app's build: served as it was built, with nothing of our site's page contract expected.
    const authPages = await findAppAuthPages(root);
    return {
      root,
      kind: 'app',
      hasManifest,
      index,
      notFound: null,
      login: null,
      buildInfo: null,
      authPages,
      problems,
    };
  }
  if (index === null)
    problems.push(`${join(root, BUILT_PAGES.home)} is missing: run \`npm run build\` first`);
  if (index !== null && notFound === null) problems.push(`${join(root, BUILT_PAGES.notFound)} is missing`);
  if (index !== null && login === null) {
    problems.push(
      `${join(root, BUILT_PAGES.login)} is missing: /login answers 404 until the site is rebuilt`,
    );
  }
  let buildInfo: BuildInfo | null = null;
  if (buildInfoText !== null) {
    try {
      const parsed = BuildInfoSchema.safeParse(JSON.parse(buildInfoText));
      if (parsed.success) buildInfo = parsed.data;
      else problems.push(`${BUILD_INFO_FILE} is malformed: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
    } catch {
      problems.push(`${BUILD_INFO_FILE} is not valid JSON`);
    }
  } else if (index !== null) {
    problems.push(`${BUILD_INFO_FILE} is missing: the hero image will not be inlined`);
  }
  return {
    root,
    kind: 'site',
    hasManifest,
    index,
    notFound,
    login,
    buildInfo,
    authPages: NO_APP_AUTH_PAGES,
    problems,
  };
}
