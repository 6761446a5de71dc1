import type { Visibility } from '../api/console-api';

/** VISIBILITY_CHOICES say, for each visibility, who may open the app (Settings offers them, Overview shows one). */
export const VISIBILITY_CHOICES: Record<Visibility, { label: string; hint: string }> = {
  public_without_login: { label: 'Public', hint: 'Anyone may open the app without signing in.' },
  public_with_login: { label: 'Public, sign-in required', hint: 'Anyone may sign in to open the app.' },
  private_with_login: { label: 'Private', hint: "Only the app's users may sign in to open it." },
};
