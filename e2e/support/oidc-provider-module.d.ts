// oidc-provider (the certified OpenID provider the sign-in tests run in-process) ships no typings: the part
// the tests use.
declare module 'oidc-provider' {
  import type { Server } from 'node:http';
  interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }
  interface Account {
    accountId: string;
    claims(): Promise<AccountClaims>;
  }
  interface GrantLike {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface ProviderContext {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string };
      provider: { Grant: new (init: { clientId: string; accountId: string }) => GrantLike };
    };
  }
  interface ProviderConfiguration {
    clients: Array<Record<string, unknown>>;
    findAccount(ctx: unknown, sub: string): Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    pkce?: { required?: () => boolean };
    features?: Record<string, { enabled: boolean }>;
    loadExistingGrant?(ctx: ProviderContext): Promise<GrantLike | undefined>;
    ttl?: Record<string, number | (() => number)>;
    issueRefreshToken?(ctx: unknown, client: { grantTypeAllowed(type: string): boolean }): Promise<boolean>;
    cookies?: { keys?: string[] };
  }
  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration);
    proxy: boolean;
    listen(port: number, host?: string): Server;
    on(event: string, listener: (...args: unknown[]) => void): this;
    use(
      middleware: (
        ctx: { path: string; status: number; body: unknown },
        next: () => Promise<void>,
      ) => Promise<void>,
    ): void;
  }
}
