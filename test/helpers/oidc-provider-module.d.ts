/**
 * The little of oidc-provider's API the tests use (the package ships no types; @types/oidc-provider
 * would be one more dev dependency for four calls).
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients: Record<string, unknown>[];
    cookies?: { keys: string[] };
    claims?: Record<string, string[]>;
    scopes?: string[];
    pkce?: { required(): boolean };
    features?: Record<string, { enabled: boolean }>;
    findAccount(ctx: unknown, id: string): Promise<Account>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
