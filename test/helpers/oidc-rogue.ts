/**
 * A provider that signs ID tokens it should not: what no well-kept provider can be made to send
 * (a token for another audience, one from another issuer, one expired), so the console's checks
 * of them can be tested. Discovery, keys and a token endpoint, on the loopback; its authorization
 * endpoint signs anyone in at once and sends the browser back with a code.
 */
import { generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface RogueToken {
  /** Claims put over the honest ones (iss, aud, exp, iat, nonce, sub...). */
  override?: Record<string, unknown>;
}

export interface RogueProvider {
  issuer: string;
  /** The claims the next ID token carries in place of the honest ones. */
  next(token: RogueToken): void;
  close(): Promise<void>;
}

export async function startRogueProvider(options: {
  clientId: string;
  claims: Record<string, unknown>;
}): Promise<RogueProvider> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = "rogue-key";
  const codes = new Map<string, string>(); // code → nonce
  let pending: RogueToken = {};
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", issuer);
    const json = (body: unknown) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === "/.well-known/openid-configuration") {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
      });
    }
    if (url.pathname === "/jwks") {
      return json({ keys: [{ ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" }] });
    }
    if (url.pathname === "/auth") {
      const code = randomUUID();
      codes.set(code, url.searchParams.get("nonce") ?? "");
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      response.writeHead(303, { location: back.href });
      return response.end();
    }
    if (url.pathname === "/token" && request.method === "POST") {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on("end", () => {
        const code = new URLSearchParams(body).get("code") ?? "";
        const nonce = codes.get(code);
        codes.delete(code);
        if (nonce === undefined) {
          response.writeHead(400, { "content-type": "application/json" });
          return response.end(JSON.stringify({ error: "invalid_grant" }));
        }
        const now = Math.floor(Date.now() / 1000);
        const claims = {
          iss: issuer,
          aud: options.clientId,
          iat: now,
          exp: now + 300,
          nonce,
          ...options.claims,
          ...pending.override,
        };
        pending = {};
        json({ access_token: randomUUID(), token_type: "Bearer", expires_in: 300, id_token: jwt(claims) });
      });
      return;
    }
    response.writeHead(404);
    response.end();
  });
  const jwt = (claims: Record<string, unknown>) => {
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const input = `${part({ alg: "RS256", kid, typ: "JWT" })}.${part(claims)}`;
    return `${input}.${sign("sha256", Buffer.from(input), privateKey).toString("base64url")}`;
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    next(token) {
      pending = token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
