/**
 * Company sign-in's edges over real HTTP, against a real provider: a provider's person has no
 * password here to reset (the console's form and the built CLI refuse, nothing changes); one
 * person's two first sign-ins at once both succeed with one user; and /login/oidc is limited per
 * client address (429 with Retry-After, a page in the reader's language), another address unhurt.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliWithInput } from "../helpers/cli.ts";
import {
  createUser,
  freePort,
  postForm,
  type SignedIn,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  authorizeOverHttp,
  CLIENT_SECRET,
  companySignIn,
  startProvider,
  type TestProvider,
} from "../helpers/oidc-provider.ts";
import { waitUntil } from "../helpers/wait.ts";

let t: TestDatabase;
let web: TestConsole;
let op: TestProvider;
let root: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/login/oidc/callback`;
  op = await startProvider({
    redirectUri: callback,
    postLogoutRedirectUri: `http://127.0.0.1:${port}/login`,
    people: { rita: { groups: ["finance"] }, nina: { groups: ["finance"] } },
  });
  web = await startTestConsole(t.db, {
    port,
    env: {
      REGWATCH_OIDC_ISSUER: op.issuer,
      REGWATCH_OIDC_CLIENT_ID: "regwatch",
      REGWATCH_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      REGWATCH_OIDC_REDIRECT_URL: callback,
      REGWATCH_OIDC_ROLE_MAP: '[{"claim":"groups","value":"finance","role":"reader"}]',
      REGWATCH_OIDC_SCOPES: "openid profile groups",
      // Each test starts from an address of its own (X-Forwarded-For), so limits do not mix.
      REGWATCH_WEB_TRUST_PROXY: "loopback",
    },
  });
  await createUser(t.db, "root", "admin");
  root = await signIn(web.url, "root");
});
afterAll(async () => {
  await web?.close();
  await op?.close();
  await t?.drop();
});

const from = (address: string, lang = "en") => ({ "x-forwarded-for": address, "accept-language": lang });

async function userRow(name: string) {
  const rows = await t.db.sql<{ password_hash: string; sessions: number }[]>`
    select u.password_hash,
           (select count(*)::int from regwatch.console_sessions s where s.user_id = u.id) as sessions
    from regwatch.console_users u where u.name = ${name}`;
  return rows;
}

describe("a provider's person has no password here", () => {
  it("the console's reset and `regwatch users passwd` refuse, and nothing changes", async () => {
    expect((await companySignIn(web.url, "rita")).status).toBe(303);
    const before = await userRow("rita");
    expect(before).toEqual([{ password_hash: "external", sessions: 1 }]);

    const reset = await postForm(`${web.url}/users/rita/password`, root, {});
    expect(reset.status).toBe(400);
    expect(await reset.text()).toContain("signs in through the company&#39;s identity provider");
    const hu = await fetch(`${web.url}/users/rita/password`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: root.cookie,
        "accept-language": "hu",
      },
      body: new URLSearchParams({ _csrf: root.csrf }),
    });
    expect(hu.status).toBe(400);
    expect(await hu.text()).toContain("céges fiókkal jelentkezik be");

    const cli = await runCliWithInput(
      ["users", "passwd", "rita", "--password-stdin"],
      { DATABASE_URL: t.url },
      "a brand new long password\n",
    );
    expect(cli.code).toBe(64);
    expect(cli.stderr).toContain("signs in through the company's identity provider");
    expect(await userRow("rita")).toEqual(before);
  });
});

describe("one person's two first sign-ins at once", () => {
  it("both succeed, with one user", async () => {
    const started = [];
    for (const address of ["198.51.100.1", "198.51.100.2"]) {
      const start = await fetch(`${web.url}/login/oidc`, { redirect: "manual", headers: from(address) });
      const cookie = start.headers
        .getSetCookie()
        .map((c) => c.split(";")[0]!)
        .find((c) => c.startsWith("regwatch_oidc="))!;
      started.push({ cookie, back: await authorizeOverHttp(start.headers.get("location")!, "nina") });
    }
    // Both callbacks are held at the user's row lock until both wait there, then let go at once:
    // both find no user, and both insert.
    let letGo = () => {};
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = t.db.sql.begin(async (tx) => {
      await tx`lock table regwatch.console_users in exclusive mode`;
      locked();
      await new Promise<void>((resolve) => {
        letGo = resolve;
      });
    });
    await isLocked;
    const answers = started.map(({ cookie, back }) =>
      fetch(back, { redirect: "manual", headers: { cookie } }),
    );
    await waitUntil(
      async () => {
        const [row] = await t.db.sql<{ n: number }[]>`
          select count(*)::int as n from pg_locks
          where relation = 'regwatch.console_users'::regclass and not granted`;
        return row!.n === 2;
      },
      { what: "both sign-ins waiting for the users table" },
    );
    letGo();
    await holding;
    const statuses = await Promise.all(answers.map(async (a) => (await a).status));
    expect(statuses).toEqual([303, 303]);
    expect(await userRow("nina")).toEqual([{ password_hash: "external", sessions: 2 }]);
  });
});

describe("starts of company sign-in per address", () => {
  it("allows twenty a minute from one address, then 429 with Retry-After; another address goes on", async () => {
    for (let i = 0; i < 20; i += 1) {
      const start = await fetch(`${web.url}/login/oidc`, {
        redirect: "manual",
        headers: from("203.0.113.7"),
      });
      expect(start.status).toBe(303);
    }
    const refused = await fetch(`${web.url}/login/oidc`, {
      redirect: "manual",
      headers: from("203.0.113.7"),
    });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.headers.getSetCookie().some((c) => c.startsWith("regwatch_oidc="))).toBe(false);
    expect(await refused.text()).toContain("Too many company sign-ins were started from your address");
    const hu = await fetch(`${web.url}/login/oidc`, {
      redirect: "manual",
      headers: from("203.0.113.7", "hu"),
    });
    expect(hu.status).toBe(429);
    expect(await hu.text()).toContain("túl sok céges bejelentkezést kezdtek meg");
    const [pending] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from regwatch.console_oidc_logins`;
    expect(pending!.n).toBe(20);

    const other = await fetch(`${web.url}/login/oidc`, { redirect: "manual", headers: from("203.0.113.8") });
    expect(other.status).toBe(303);
  });
});
