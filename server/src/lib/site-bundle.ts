import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BUILD_INFO_FILE,
  BuildInfoSchema,
  BUILT_PAGES,
  type BuildInfo,
} from '../../../site/src/page-contract/build-info';

export type { BuildInfo } from '../../../site/src/page-contract/build-info';

/** SiteBundle is the built site's HTML held in memory; `index` is null when the site was not built. */
export interface SiteBundle {
  root: string;
  index: string | null;
  notFound: string | null;
  /** login is the prerendered sign-in page (`/login`); null when the build has none. */
  login: string | null;
  buildInfo: BuildInfo | null;
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
  const [index, notFound, login, buildInfoText] = await Promise.all([
    readText(BUILT_PAGES.home),
    readText(BUILT_PAGES.notFound),
    readText(BUILT_PAGES.login),
    readText(BUILD_INFO_FILE),
  ]);
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
  return { root, index, notFound, login, buildInfo, problems };
}
