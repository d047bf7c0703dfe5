/**
 * A real OpenID Provider for the console's company sign-in tests: panva's oidc-provider (the
 * certified implementation openid-client is tested against), started on a free loopback port
 * with its development login and consent pages. Any login name signs in; the person's claims come
 * from `people` (unknown names get only `sub` and `preferred_username`).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestPerson {
  email?: string;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  provider: Provider;
  close(): Promise<void>;
}

export const CLIENT_SECRET = "a-test-client-secret-for-the-console";

export async function startProvider(options: {
  redirectUri: string;
  postLogoutRedirectUri: string;
  people?: Record<string, TestPerson>;
  clientId?: string;
  /** More clients registered with the same redirect address (a token for another client). */
  otherClients?: string[];
}): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = (client_id: string) => ({
    client_id,
    client_secret: CLIENT_SECRET,
    redirect_uris: [options.redirectUri],
    post_logout_redirect_uris: [options.postLogoutRedirectUri],
    grant_types: ["authorization_code"],
    response_types: ["code"],
  });
  const provider = new Provider(issuer, {
    clients: [client(options.clientId ?? "regwatch"), ...(options.otherClients ?? []).map(client)],
    cookies: { keys: ["test-cookie-key-one"] },
    claims: { openid: ["sub"], profile: ["preferred_username"], email: ["email"], groups: ["groups"] },
    scopes: ["openid", "profile", "email", "groups"],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    async findAccount(_ctx, id) {
      const person = options.people?.[id] ?? {};
      return {
        accountId: id,
        claims: async () => ({ sub: id, preferred_username: id, ...person }),
      };
    },
  });
  // Quiet: the provider reports refused requests (a replayed code) as events, not on stderr.
  provider.on("server_error", () => {});
  server.on("request", provider.callback());
  return {
    issuer,
    provider,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Signs in at the provider over HTTP as `login` (its development login, then consent), starting
 * from an authorization URL; resolves with the callback address the provider sends the browser to.
 */
export async function authorizeOverHttp(authorizationUrl: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (response: Response) => {
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  let url = authorizationUrl;
  let form: Record<string, string> | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    const response = await fetch(url, {
      redirect: "manual",
      method: form ? "POST" : "GET",
      headers: { cookie: cookie(), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      ...(form ? { body: new URLSearchParams(form) } : {}),
    });
    keep(response);
    form = undefined;
    const location = response.headers.get("location");
    if (location) {
      const next = new URL(location, url).href;
      if (!next.startsWith(new URL(authorizationUrl).origin)) return next;
      url = next;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action)
      throw new Error(`the provider answered ${response.status} without a form: ${html.slice(0, 300)}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    url = new URL(action.replace(/&amp;/g, "&"), url).href;
    form = prompt === "login" ? { prompt, login, password: "any" } : { prompt: prompt ?? "consent" };
  }
  throw new Error("the provider never sent the browser back");
}

/** The whole company sign-in over HTTP: the console's start, the provider, the callback's answer. */
export async function companySignIn(consoleUrl: string, login: string): Promise<Response> {
  const start = await fetch(`${consoleUrl}/login/oidc`, { redirect: "manual" });
  const pending = start.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("regwatch_oidc="));
  const back = await authorizeOverHttp(start.headers.get("location")!, login);
  return fetch(back, { redirect: "manual", headers: { cookie: pending ?? "" } });
}
