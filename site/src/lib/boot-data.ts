/** PublicSettings is what `GET /api/apps/public/prod/public-settings/by-id/:appId` answers. */
export interface PublicSettings {
  id: string;
  public_settings: string;
}

/** BootData is what the server places into the page it serves (script#app-boot). */
export interface BootData {
  appId: string | null;
  publicSettings: PublicSettings | null;
  heroImageUrl: string | null;
}

const EMPTY: BootData = { appId: null, publicSettings: null, heroImageUrl: null };

/** readBootData parses the server-provided boot script; a missing or malformed one means "unknown". */
export function readBootData(doc: Document | undefined = globalThis.document): BootData {
  const text = doc?.getElementById('app-boot')?.textContent;
  if (!text) return EMPTY;
  try {
    const raw = JSON.parse(text) as Partial<BootData>;
    const settings = raw.publicSettings;
    return {
      appId: typeof raw.appId === 'string' ? raw.appId : null,
      publicSettings:
        settings && typeof settings.id === 'string' && typeof settings.public_settings === 'string'
          ? { id: settings.id, public_settings: settings.public_settings }
          : null,
      heroImageUrl: typeof raw.heroImageUrl === 'string' ? raw.heroImageUrl : null,
    };
  } catch {
    return EMPTY;
  }
}
