/**
 * Company sign-in in Chromium through the whole redirect: the console's sign-in page, "Sign in
 * with Acme ID", the provider's own login and consent pages (oidc-provider on the loopback), and
 * back to the inbox with the role the map gives; a person no rule maps sees the refusal page; the
 * sign-out leaves through the provider's end-session page and lands on the console's sign-in.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, type TestBrowser } from "../helpers/browser.ts";
import { freePort, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { CLIENT_SECRET, startProvider, type TestProvider } from "../helpers/oidc-provider.ts";

let t: TestDatabase;
let web: TestConsole;
let op: TestProvider;
let browser: TestBrowser;

beforeAll(async () => {
  t = await createTestDatabase();
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/login/oidc/callback`;
  op = await startProvider({
    redirectUri: callback,
    postLogoutRedirectUri: `http://127.0.0.1:${port}/login`,
    people: { ada: { groups: ["regwatch-admins"] }, nora: { groups: ["marketing"] } },
  });
  web = await startTestConsole(t.db, {
    port,
    env: {
      REGWATCH_OIDC_ISSUER: op.issuer,
      REGWATCH_OIDC_CLIENT_ID: "regwatch",
      REGWATCH_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      REGWATCH_OIDC_REDIRECT_URL: callback,
      REGWATCH_OIDC_ROLE_MAP: '[{"claim":"groups","value":"regwatch-admins","role":"admin"}]',
      REGWATCH_OIDC_SCOPES: "openid profile email groups",
      REGWATCH_OIDC_LABEL: "Acme ID",
    },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await op?.close();
  await t?.drop();
});

/** From the console's sign-in page through the provider's login and consent pages. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.goto(`${web.url}/login`);
  await page.click("text=Sign in with Acme ID");
  await page.waitForURL((url) => url.origin === op.issuer);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', "any password");
  await page.click('button[type="submit"]');
  await page.waitForSelector('input[name="prompt"][value="consent"]', { state: "attached" });
  await page.click('button[type="submit"]');
  await page.waitForURL((url) => url.origin === web.url);
}

describe("company sign-in in a browser", () => {
  it("goes to the provider and back to the inbox as an admin, and signs out at both", async () => {
    const page = await browser.context.newPage();
    await signInAtProvider(page, "ada");
    expect(page.url()).toBe(`${web.url}/`);
    await expect(page.textContent("body")).resolves.toContain("ada");
    // The admin's menu entry: the role came from the group claim.
    expect(await page.locator('nav a[href="/users"]').count()).toBe(1);
    await Promise.all([
      page.waitForURL((url) => url.origin === op.issuer),
      page.click('form[action="/logout"] button'),
    ]);
    // The provider asks whether to sign out of it too; either way the browser comes back.
    await page.click('button[autofocus], button[type="submit"]');
    await page.waitForURL(`${web.url}/login`);
    await page.goto(`${web.url}/`);
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.close();
  });

  it("shows a person no rule maps a page that says why, and no inbox", async () => {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await signInAtProvider(page, "nora");
    expect(new URL(page.url()).pathname).toBe("/login/oidc/callback");
    const text = await page.textContent("main");
    expect(text).toContain("Company sign-in refused");
    expect(text).toContain("none of your groups or claims gives you a role in regwatch");
    await page.goto(`${web.url}/`);
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.close();
  });
});
