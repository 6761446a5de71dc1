import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/** BOOT_MARKER is the comment in the built pages' `<head>` that the boot script replaces. */
export const BOOT_MARKER = '<!--app-boot-->';
/** PATH_PLACEHOLDER is replaced in 404.html by the escaped requested path. */
export const PATH_PLACEHOLDER = '__APP_REQUESTED_PATH__';
/** HERO_URL_PLACEHOLDER is replaced in the hero's ready fragment by the image URL. */
export const HERO_URL_PLACEHOLDER = '__APP_HERO_URL__';

const BuildInfoSchema = z.object({
  configHash: z.string(),
  heroPrompt: z.string().min(1),
  hero: z.object({ generating: z.string().min(1), ready: z.string().includes(HERO_URL_PLACEHOLDER) }),
});

export type BuildInfo = z.infer<typeof BuildInfoSchema>;

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
    readText('index.html'),
    readText('404.html'),
    readText('login.html'),
    readText('build-info.json'),
  ]);
  if (index === null) problems.push(`${join(root, 'index.html')} is missing: run \`npm run build\` first`);
  if (index !== null && notFound === null) problems.push(`${join(root, '404.html')} is missing`);
  if (index !== null && login === null) {
    problems.push(`${join(root, 'login.html')} is missing: /login answers 404 until the site is rebuilt`);
  }
  let buildInfo: BuildInfo | null = null;
  if (buildInfoText !== null) {
    try {
      const parsed = BuildInfoSchema.safeParse(JSON.parse(buildInfoText));
      if (parsed.success) buildInfo = parsed.data;
      else problems.push(`build-info.json is malformed: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
    } catch {
      problems.push('build-info.json is not valid JSON');
    }
  } else if (index !== null) {
    problems.push('build-info.json is missing: the hero image will not be inlined');
  }
  return { root, index, notFound, login, buildInfo, problems };
}
