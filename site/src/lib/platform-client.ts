import type { Base44Client } from '@base44/sdk';
import { forgetToken } from './app-context';

let clientPromise: Promise<Base44Client> | undefined;

/**
 * getPlatformClient returns the one platform client of the page. The SDK is loaded on first use, after
 * the first paint, so it never weighs on the page's initial JavaScript.
 */
export function getPlatformClient(): Promise<Base44Client> {
  clientPromise ??= import('./create-platform-client').then((module) => module.createPlatformClient());
  return clientPromise;
}

/** dropRejectedToken forgets a token the server refused and continues with an anonymous client. */
export async function dropRejectedToken(): Promise<void> {
  const previous = clientPromise;
  forgetToken();
  clientPromise = undefined;
  (await previous)?.cleanup();
}
