/**
 * Company sign-in from the build: `regwatch web` as users run it (bin/regwatch.js over dist/, with
 * openid-client bundled in a chunk loaded on the first sign-in) signs a person in through a real
 * provider, and its log says so without a token or the client secret.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../helpers/cli.ts";
import { freePort, startWebProcess } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { CLIENT_SECRET, companySignIn, startProvider, type TestProvider } from "../helpers/oidc-provider.ts";
import { waitUntil } from "../helpers/wait.ts";

let t: TestDatabase;
let op: TestProvider;
let web: Awaited<ReturnType<typeof startWebProcess>>;
let output = "";

beforeAll(async () => {
  t = await createTestDatabase();
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/login/oidc/callback`;
  op = await startProvider({
    redirectUri: callback,
    postLogoutRedirectUri: `http://127.0.0.1:${port}/login`,
    people: { ada: { groups: ["regwatch-admins"] } },
  });
  web = await startWebProcess(
    BIN,
    {
      DATABASE_URL: t.url,
      REGWATCH_OIDC_ISSUER: op.issuer,
      REGWATCH_OIDC_CLIENT_ID: "regwatch",
      REGWATCH_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      REGWATCH_OIDC_REDIRECT_URL: callback,
      REGWATCH_OIDC_SCOPES: "openid profile groups",
      REGWATCH_OIDC_ROLE_MAP: '[{"claim":"groups","value":"regwatch-admins","role":"admin"}]',
    },
    [],
    port,
  );
  web.child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  web.child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
});
afterAll(async () => {
  await web?.stop();
  await op?.close();
  await t?.drop();
});

describe("company sign-in from the build", () => {
  it("signs a mapped person in through the provider", async () => {
    const answer = await companySignIn(web.url, "ada");
    expect(answer.status).toBe(303);
    const session = answer.headers
      .getSetCookie()
      .find((c) => c.startsWith("regwatch_session="))!
      .split(";")[0]!;
    const inbox = await fetch(`${web.url}/`, { headers: { cookie: session } });
    expect(inbox.status).toBe(200);
    expect(await inbox.text()).toContain("ada");
    await waitUntil(() => output.includes('"via":"oidc"'), {
      what: "the sign-in's log line",
      process: web.child,
    });
    expect(output).not.toContain(CLIENT_SECRET);
    expect(output).not.toMatch(/eyJ[\w-]+\.eyJ/);
  });
});
