/**
 * A real browser for the console's tests: Debian's Chromium (/usr/bin/chromium, installed by
 * .ci/run when missing) driven by playwright-core, headless, with a fresh profile per launch and
 * every background request Chromium makes on its own switched off.
 */
import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { TEST_PASSWORD } from "./console.ts";

export const CHROMIUM_PATH = process.env.REGWATCH_TEST_CHROMIUM ?? "/usr/bin/chromium";

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const profile = await mkdtemp(path.join(tmpdir(), "regwatch-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Where screenshots and the files a browser test uploads go (test-output/, made when missing; not committed). */
export function screenshotPath(name: string): string {
  const dir = path.join(process.cwd(), "test-output");
  mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

/** A new tab whose every request asks for these languages (`Accept-Language`). */
export async function pageAsking(browser: TestBrowser, acceptLanguage: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setExtraHTTPHeaders({ "Accept-Language": acceptLanguage });
  return page;
}

/** Signs in through the console's form, as a person does; resolves on the inbox. */
export async function signInThroughForm(page: Page, url: string, name: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.fill('input[name="username"]', name);
  await page.fill('input[name="password"]', TEST_PASSWORD);
  await Promise.all([page.waitForURL(`${url}/`), page.click('form[action="/login"] button')]);
}
