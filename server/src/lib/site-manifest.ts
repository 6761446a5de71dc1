// The web app manifest a hosted app gets when its build has none: every Base44 template's index.html
// links `/manifest.json`, and most builds do not contain one (docs/hosting-apps.md).

/** WebAppManifest is the part of the W3C manifest generated here. */
export interface WebAppManifest {
  name: string;
  short_name: string;
  start_url: string;
  display: 'standalone';
  background_color: string;
  theme_color: string;
  icons: never[];
}

/** appManifest is a minimal manifest naming the app (short_name cut to the 12 characters launchers show). */
export function appManifest(appName: string): WebAppManifest {
  const name = appName.trim() || 'App';
  return {
    name,
    short_name: [...name].slice(0, 12).join('').trim(),
    start_url: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#ffffff',
    icons: [],
  };
}
