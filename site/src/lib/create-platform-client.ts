import { createClient } from '@base44/sdk';
import { appParams } from './app-context';

/** createPlatformClient builds the SDK client from the resolved app parameters (same origin by default). */
export function createPlatformClient() {
  return createClient({
    appId: appParams.appId ?? '',
    serverUrl: appParams.serverUrl,
    appBaseUrl: appParams.serverUrl,
    token: appParams.token ?? undefined,
    functionsVersion: appParams.functionsVersion ?? undefined,
    requiresAuth: false,
  });
}
