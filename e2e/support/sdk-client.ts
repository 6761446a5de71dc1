import { createClient } from '@base44/sdk';

/** DEFAULT_APP_ID is the app id of the shipped site config, which test servers host by default. */
export const DEFAULT_APP_ID = 'queen-solana';

/** sdkClient builds the official SDK client against a test server, as a Node app would. */
export function sdkClient(serverUrl: string, appId: string = DEFAULT_APP_ID) {
  return createClient({ serverUrl, appId, requiresAuth: false });
}
