/**
 * Company sign-in over real HTTP: a real OpenID Provider (oidc-provider) on the loopback, the
 * console signing people in through it (role and accounts from the role map), and every attack
 * refused with a page and no session: a forged state, a replayed callback, a second provider's
 * answer (wrong issuer), and tokens no honest provider sends (another audience, expired).
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import {
  createUser,
  freePort,
  getPage,
  hiddenCsrf,
  postForm,
  startTestConsole,
  TEST_PASSWORD,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  authorizeOverHttp,
  CLIENT_SECRET,
  startProvider,
  type TestProvider,
} from "../helpers/oidc-provider.ts";
import { type RogueProvider, startRogueProvider } from "../helpers/oidc-rogue.ts";

const ROLE_MAP = JSON.stringify([
  { claim: "groups", value: "regwatch-admins", role: "admin" },
  { claim: "groups", value: "finance", role: "reader" },
]);
const PEOPLE = {
  rita: { groups: ["finance"], email: "rita@example.com" },
  ada: { groups: ["regwatch-admins", "finance"] },
  nora: { groups: ["marketing"] },
  olga: { groups: ["regwatch-admins"] },
};

let t: TestDatabase;
let web: TestConsole;
let op: TestProvider;
let second: TestProvider;
let callback: string;
/** Every line the console logged, for what must never be in it. */
const logged: string[] = [];
const log = createLogger({ level: "info", stream: { write: (line: string) => logged.push(line) } });
/** What the tests saw pass by that must never be logged or stored: codes, and the secret. */
const seen = new Set<string>([CLIENT_SECRET]);

function oidcEnv(issuer: string, extra: Record<string, string> = {}) {
  return {
    REGWATCH_OIDC_ISSUER: issuer,
    REGWATCH_OIDC_CLIENT_ID: "regwatch",
    REGWATCH_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    REGWATCH_OIDC_REDIRECT_URL: callback,
    REGWATCH_OIDC_ROLE_MAP: ROLE_MAP,
    REGWATCH_OIDC_SCOPES: "openid profile email groups",
    REGWATCH_OIDC_LABEL: "Acme ID",
    ...extra,
  };
}

beforeAll(async () => {
  t = await createTestDatabase();
  const port = await freePort();
  callback = `http://127.0.0.1:${port}/login/oidc/callback`;
  const back = {
    redirectUri: callback,
    postLogoutRedirectUri: `http://127.0.0.1:${port}/login`,
    people: PEOPLE,
  };
  op = await startProvider(back);
  second = await startProvider(back);
  web = await startTestConsole(t.db, { port, env: oidcEnv(op.issuer), log });
  await createUser(t.db, "olga", "reviewer");
});
afterAll(async () => {
  await web?.close();
  await op?.close();
  await second?.close();
  await t?.drop();
});

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);

/** GET /login/oidc: the provider's authorization URL and the pending cookie. */
async function begin(url = web.url): Promise<{ authorization: string; cookie: string }> {
  const start = await fetch(`${url}/login/oidc`, { redirect: "manual" });
  expect(start.status).toBe(303);
  return { authorization: start.headers.get("location")!, cookie: cookieOf(start, "regwatch_oidc")! };
}

function finish(callbackUrl: string, cookie: string): Promise<Response> {
  const code = new URL(callbackUrl).searchParams.get("code");
  if (code) seen.add(code);
  return fetch(callbackUrl, { redirect: "manual", headers: { cookie } });
}

async function sessionsOf(name: string): Promise<number> {
  const [row] = await t.db.sql<{ n: number }[]>`
    select count(*)::int as n from regwatch.console_sessions s
    join regwatch.console_users u on u.id = s.user_id where u.name = ${name}`;
  return row!.n;
}

describe("company sign-in through a real provider", () => {
  it("offers the button beside the password form", async () => {
    const page = await (await fetch(`${web.url}/login`)).text();
    expect(page).toContain('href="/login/oidc"');
    expect(page).toContain("Sign in with Acme ID");
    expect(page).toContain('name="password"');
    const hu = await (await fetch(`${web.url}/login`, { headers: { "accept-language": "hu" } })).text();
    expect(hu).toContain("Bejelentkezés céges fiókkal (Acme ID)");
    expect(hu).toContain("vagy helyi felhasználónévvel és jelszóval");
  });

  it("asks for a code with PKCE (S256), a state and a nonce", async () => {
    const { authorization } = await begin();
    const asked = new URL(authorization);
    expect(asked.origin).toBe(op.issuer);
    expect(asked.searchParams.get("code_challenge_method")).toBe("S256");
    expect(asked.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(asked.searchParams.get("state")).toMatch(/^[\w-]{20,}$/);
    expect(asked.searchParams.get("nonce")).toMatch(/^[\w-]{20,}$/);
    expect(asked.searchParams.get("redirect_uri")).toBe(callback);
  });

  it("signs a mapped person in with the role the map gives, stores no token, and a replay fails", async () => {
    const { authorization, cookie } = await begin();
    const back = await authorizeOverHttp(authorization, "rita");
    const answer = await finish(back, cookie);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/");
    const session = cookieOf(answer, "regwatch_session")!;
    const home = await getPage(`${web.url}/`, { cookie: session, csrf: "" });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("rita");
    const [user] = await t.db.sql<{ role: string; external_subject: string; password_hash: string }[]>`
      select role, external_subject, password_hash from regwatch.console_users where name = 'rita'`;
    expect(user).toEqual({
      role: "reader",
      external_subject: `${op.issuer} rita`,
      password_hash: "external",
    });
    // The sign-in's row (state, nonce, verifier) is gone once used.
    const pendingId = createHash("sha256").update(cookie.split("=")[1]!).digest("hex");
    expect(await t.db.sql`select 1 from regwatch.console_oidc_logins where id = ${pendingId}`).toHaveLength(
      0,
    );

    // The same callback again (the code and state replayed, with the cookie): refused, no session.
    const replay = await finish(back, cookie);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("already been used");
    expect(cookieOf(replay, "regwatch_session")).toBeUndefined();
    // ...and with a fresh sign-in under way in the browser: the old code's state is not its state.
    const fresh = await begin();
    const again = await finish(back, fresh.cookie);
    expect(again.status).toBe(403);
    expect(cookieOf(again, "regwatch_session")).toBeUndefined();
    expect(await sessionsOf("rita")).toBe(1);
  });

  it("refuses a person no rule maps with a page that says so", async () => {
    const { authorization, cookie } = await begin();
    const answer = await finish(await authorizeOverHttp(authorization, "nora"), cookie);
    expect(answer.status).toBe(403);
    const page = await answer.text();
    expect(page).toContain("Company sign-in refused");
    expect(page).toContain("none of your groups or claims gives you a role");
    expect(cookieOf(answer, "regwatch_session")).toBeUndefined();
    expect(await t.db.sql`select 1 from regwatch.console_users where name = 'nora'`).toHaveLength(0);
  });

  it("refuses a forged state", async () => {
    const { authorization, cookie } = await begin();
    const back = new URL(await authorizeOverHttp(authorization, "ada"));
    back.searchParams.set("state", "forged-state-of-an-attacker");
    const answer = await finish(back.href, cookie);
    expect(answer.status).toBe(403);
    expect(await answer.text()).toMatch(
      /did not pass the console&#39;s checks|did not pass the console's checks/,
    );
    expect(cookieOf(answer, "regwatch_session")).toBeUndefined();
    expect(await sessionsOf("ada")).toBe(0);
  });

  it("refuses a callback with no sign-in under way in this browser (login CSRF)", async () => {
    const { authorization } = await begin();
    const back = await authorizeOverHttp(authorization, "ada");
    const answer = await finish(back, "");
    expect(answer.status).toBe(400);
    expect(await sessionsOf("ada")).toBe(0);
  });

  it("refuses a second provider's answer (wrong issuer)", async () => {
    const { authorization, cookie } = await begin();
    const elsewhere = new URL(authorization);
    const atSecond = new URL(`${second.issuer}${elsewhere.pathname}${elsewhere.search}`);
    const answer = await finish(await authorizeOverHttp(atSecond.href, "ada"), cookie);
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain("iss");
    expect(await sessionsOf("ada")).toBe(0);
  });

  it("refuses a name a local user holds", async () => {
    const { authorization, cookie } = await begin();
    const answer = await finish(await authorizeOverHttp(authorization, "olga"), cookie);
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain("belongs to another console user");
    const [olga] = await t.db.sql<
      { role: string }[]
    >`select role from regwatch.console_users where name = 'olga'`;
    expect(olga!.role).toBe("reviewer");
  });

  it("signs a provider's person out at the provider too; a local user stays local", async () => {
    const { authorization, cookie } = await begin();
    const answer = await finish(await authorizeOverHttp(authorization, "ada"), cookie);
    const session = cookieOf(answer, "regwatch_session")!;
    const home = await getPage(`${web.url}/`, { cookie: session, csrf: "" });
    const signedIn = { cookie: session, csrf: hiddenCsrf(await home.text()) };
    const out = await postForm(`${web.url}/logout`, signedIn, {});
    expect(out.status).toBe(303);
    const end = new URL(out.headers.get("location")!);
    expect(end.origin).toBe(op.issuer);
    expect(end.searchParams.get("client_id")).toBe("regwatch");
    expect(end.searchParams.get("post_logout_redirect_uri")).toBe(callback.replace("/oidc/callback", ""));
    expect(await sessionsOf("ada")).toBe(0);
    expect((await getPage(`${web.url}/`, signedIn)).status).toBe(303);
  });
});

describe("what is kept", () => {
  it("logs sign-ins and refusals but never a code, a token or the client secret", async () => {
    const text = logged.join("");
    expect(text).toContain('"via":"oidc"');
    expect(text).toContain("company sign-in refused");
    expect(seen.size).toBeGreaterThan(5);
    for (const secret of seen) expect(text).not.toContain(secret);
    // No JWT (an ID or access token) in the log or in any console table.
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ/);
    const rows = await t.db.sql<{ row: string }[]>`
      select row_to_json(u)::text as row from regwatch.console_users u
      union all select row_to_json(s)::text from regwatch.console_sessions s
      union all select row_to_json(o)::text from regwatch.console_oidc_logins o`;
    const stored = rows.map((r) => r.row).join("\n");
    expect(stored).not.toMatch(/eyJ[\w-]+\.eyJ/);
    for (const secret of seen) expect(stored).not.toContain(secret);
  });
});

describe("a provider that cannot be reached", () => {
  it("answers 502 with a page naming the provider, and the next try asks again", async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const down = await startTestConsole(t.db, { env: oidcEnv(nowhere) });
    try {
      for (const _ of [1, 2]) {
        const answer = await fetch(`${down.url}/login/oidc`, { redirect: "manual" });
        expect(answer.status).toBe(502);
        const page = await answer.text();
        expect(page).toContain("The identity provider cannot be reached");
        expect(page).toContain(nowhere);
        expect(cookieOf(answer, "regwatch_oidc")).toBeUndefined();
      }
    } finally {
      await down.close();
    }
  });
});

describe("local users turned off", () => {
  let strict: TestConsole;
  beforeAll(async () => {
    strict = await startTestConsole(t.db, { env: oidcEnv(op.issuer, { REGWATCH_OIDC_LOCAL_USERS: "off" }) });
  });
  afterAll(async () => strict?.close());

  it("hides the password form and refuses POST /login even with the right password", async () => {
    const form = await fetch(`${strict.url}/login`);
    const page = await form.text();
    expect(page).not.toContain('name="password"');
    expect(page).toContain("Sign in with Acme ID");
    const answer = await fetch(`${strict.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: cookieOf(form, "regwatch_login_csrf") ?? "",
      },
      body: new URLSearchParams({ username: "olga", password: TEST_PASSWORD, _csrf: hiddenCsrf(page) }),
    });
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain("Password sign-in is off");
    expect(cookieOf(answer, "regwatch_session")).toBeUndefined();
  });
});

describe("tokens no honest provider sends", () => {
  let rogue: RogueProvider;
  let console2: TestConsole;
  beforeAll(async () => {
    rogue = await startRogueProvider({
      clientId: "regwatch",
      claims: { sub: "mallory", preferred_username: "mallory", groups: ["regwatch-admins"] },
    });
    const port = await freePort();
    console2 = await startTestConsole(t.db, {
      port,
      env: {
        ...oidcEnv(rogue.issuer),
        REGWATCH_OIDC_REDIRECT_URL: `http://127.0.0.1:${port}/login/oidc/callback`,
      },
    });
  });
  afterAll(async () => {
    await console2?.close();
    await rogue?.close();
  });

  async function signInWith(override: Record<string, unknown>): Promise<Response> {
    rogue.next({ override });
    const { authorization, cookie } = await begin(console2.url);
    const back = await fetch(authorization, { redirect: "manual" });
    return finish(back.headers.get("location")!, cookie);
  }

  const now = () => Math.floor(Date.now() / 1000);

  it("refuses an ID token for another client (wrong audience)", async () => {
    const answer = await signInWith({ aud: "another-client" });
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain("aud");
    expect(await sessionsOf("mallory")).toBe(0);
  });

  it("refuses an ID token naming another issuer", async () => {
    const answer = await signInWith({ iss: op.issuer });
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain("iss");
    expect(await sessionsOf("mallory")).toBe(0);
  });

  it("refuses an ID token expired beyond the 60 s of clock skew allowed", async () => {
    const answer = await signInWith({ iat: now() - 600, exp: now() - 90 });
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain("exp");
    expect(await sessionsOf("mallory")).toBe(0);
  });

  it("refuses an ID token with another nonce", async () => {
    const answer = await signInWith({ nonce: "someone-elses-nonce" });
    expect(answer.status).toBe(403);
    expect(await sessionsOf("mallory")).toBe(0);
  });

  it("accepts one expired within the skew allowed (the bound, not zero tolerance)", async () => {
    const answer = await signInWith({ iat: now() - 600, exp: now() - 20 });
    expect(answer.status).toBe(303);
    expect(await sessionsOf("mallory")).toBe(1);
  });
});
