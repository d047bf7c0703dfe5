/**
 * The console's side of company sign-in, over openid-client (Authorization Code with PKCE). The
 * library is imported on first use, so no CLI command pays for it. The provider's metadata is
 * discovered once and kept; a failed discovery is forgotten so the next sign-in tries again.
 * Every check is the library's: state, nonce, PKCE, issuer (also the `iss` of the answer),
 * audience, signature, expiry with at most CLOCK_TOLERANCE_S of skew. The access token is used
 * once, for the userinfo claims (same subject required), then dropped. No token leaves here.
 */
import type { Configuration } from "openid-client";
import { isLoopbackUrl, type OidcConfig } from "../config-oidc.ts";

/** Clock skew allowed between the console and the provider when checking an ID token's times. */
export const CLOCK_TOLERANCE_S = 60;
/** Each request to the provider (discovery, token, keys) gives up after this many seconds. */
const REQUEST_TIMEOUT_S = 10;

type Client = typeof import("openid-client");

export interface OidcStart {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcSide {
  /** A new sign-in: where to send the browser and what its callback must match. */
  start(): Promise<OidcStart>;
  /** The callback's claims once every check passed; throws OidcRefusal otherwise. */
  finish(
    callbackUrl: URL,
    expected: Omit<OidcStart, "url">,
  ): Promise<{ issuer: string; claims: Record<string, unknown> }>;
  /** The provider's sign-out address, or undefined when it has none on the issuer's origin. */
  endSessionUrl(postLogoutRedirect: string): Promise<string | undefined>;
}

/** Why the provider's answer was not accepted (never carrying a token). */
export class OidcRefusal extends Error {
  constructor(
    message: string,
    readonly reason: "provider" | "answer",
  ) {
    super(message);
  }
}

export function oidcSide(oidc: OidcConfig): OidcSide {
  let lib: Promise<Client> | undefined;
  let discovered: Promise<Configuration> | undefined;
  const client = () => (lib ??= import("openid-client"));
  const configuration = async (): Promise<{ c: Client; config: Configuration }> => {
    const c = await client();
    discovered ??= discover(c, oidc).catch((error: unknown) => {
      discovered = undefined;
      throw new OidcRefusal(
        `the identity provider at ${oidc.issuer} could not be reached: ${messageOf(error)}`,
        "provider",
      );
    });
    return { c, config: await discovered };
  };
  return {
    async start() {
      const { c, config } = await configuration();
      const codeVerifier = c.randomPKCECodeVerifier();
      const state = c.randomState();
      const nonce = c.randomNonce();
      const url = c.buildAuthorizationUrl(config, {
        redirect_uri: oidc.redirectUrl,
        scope: oidc.scopes,
        state,
        nonce,
        code_challenge: await c.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
      });
      return { url: url.href, state, nonce, codeVerifier };
    },
    async finish(callbackUrl, expected) {
      const { c, config } = await configuration();
      try {
        const tokens = await c.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: expected.codeVerifier,
          expectedState: expected.state,
          expectedNonce: expected.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new Error("the provider returned no ID token");
        // Many providers keep profile and group claims for userinfo; the ID token's own win.
        const more = config.serverMetadata().userinfo_endpoint
          ? await c.fetchUserInfo(config, tokens.access_token, claims.sub)
          : {};
        return { issuer: config.serverMetadata().issuer, claims: { ...more, ...claims } };
      } catch (error) {
        throw new OidcRefusal(messageOf(error), "answer");
      }
    },
    async endSessionUrl(postLogoutRedirect) {
      const { c, config } = await configuration();
      const end = config.serverMetadata().end_session_endpoint;
      // The console's pages let forms lead to the issuer's origin only (security-headers.ts).
      if (!end || new URL(end).origin !== new URL(oidc.issuer).origin) return undefined;
      return c.buildEndSessionUrl(config, {
        client_id: oidc.clientId,
        post_logout_redirect_uri: postLogoutRedirect,
      }).href;
    },
  };
}

async function discover(c: Client, oidc: OidcConfig): Promise<Configuration> {
  const auth = oidc.clientSecret ? c.ClientSecretBasic(oidc.clientSecret) : c.None();
  const metadata = { [c.clockTolerance]: CLOCK_TOLERANCE_S };
  const insecure = new URL(oidc.issuer).protocol === "http:" && isLoopbackUrl(oidc.issuer);
  const config = await c.discovery(new URL(oidc.issuer), oidc.clientId, metadata, auth, {
    timeout: REQUEST_TIMEOUT_S,
    ...(insecure ? { execute: [c.allowInsecureRequests] } : {}),
  });
  return config;
}

/**
 * The library's message with its code, e.g. "unexpected ID Token "aud" (audience) claim value
 * (OAUTH_JWT_CLAIM_COMPARISON_FAILED)". Its messages name the check, never the token.
 */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${typeof code === "string" ? ` (${code})` : ""}${cause}`.slice(0, 500);
}
