/**
 * Issue 49, point 8 in Chromium: every console page fits a 1280 px screen and a 375 px phone, in
 * English and in Hungarian (document.documentElement.scrollWidth <= the viewport's width). The
 * batch page shows a recorded batch with a row of every verdict: its count cards wrap, its payee
 * column stays readable (at least 120 px), no badge reaches into the "why" column, and the table
 * needs no scrolling inside its box. The README's screenshots are taken here (test-output/readme-*).
 */
import { writeFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  pageAsking,
  screenshotPath,
  signInThroughForm,
  type TestBrowser,
} from "../helpers/browser.ts";
import { recordEveryVerdict } from "./every-verdict-fixture.ts";
import { seedAdminPages } from "./pages-admins.ts";
import { type PagesWorld, startPagesWorld } from "./pages-fixture.ts";

const LOCALES = [
  { locale: "en", admin: "ada", language: "en-GB,en;q=0.9" },
  { locale: "hu", admin: "hanna", language: "hu-HU,hu;q=0.9" },
] as const;
const WIDTHS = [1280, 375] as const;

let w: PagesWorld;
let browser: TestBrowser;
let facts: { alertId: string; taxId: string; batchId: string; nameWord: string };

beforeAll(async () => {
  w = await startPagesWorld({ seed: 15 });
  const seeded = await seedAdminPages(w, LOCALES);
  const payees = await w.t.db.sql<{ taxId: string; account: string; name: string }[]>`
    select distinct on (v.tax_id) v.tax_id as "taxId", v.bank_account as account, p.name
    from regwatch.v_bank_accounts v join regwatch.business_profiles p on p.tax_id = v.tax_id
    where v.tax_id = any(${w.taxIds}::text[]) and p.name is not null
    order by v.tax_id, v.bank_account limit 8`;
  expect(payees.length).toBeGreaterThan(0);
  facts = {
    alertId: seeded.alertId,
    taxId: seeded.taxId,
    batchId: await recordEveryVerdict(w.t.db.sql, payees, "ada"),
    nameWord: payees[0]!.name.split(/\s+/).find((word) => word.length >= 4) ?? payees[0]!.name,
  };
  // A browser drops a cookie that expired by its own clock: the console's clock is the real one here.
  w.web.setNow(new Date());
  await writeFile(
    screenshotPath("fit-columns.csv"),
    "Kedvezményezett neve;Azonosító;Átutalandó összeg forintban;Megjegyzés a könyvelésnek\r\nMinta Kft.;12345676;100;első részlet\r\n",
  );
  browser = await launchBrowser();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await w?.close();
});

/** Every page a signed-in admin reaches, with what shows it has its content. */
/** `shot` names a README screenshot (Hungarian); at 375 px it begins at `from` when given. */
const PAGES: { name: string; path: () => string; has: string; shot?: string; from?: string }[] = [
  { name: "inbox", path: () => "/", has: "tr.change-row", shot: "inbox" },
  { name: "alerts filtered to open", path: () => "/?status=open&severity=high", has: "main h1" },
  { name: "an alert", path: () => `/alerts/${facts.alertId}`, has: "main h1" },
  { name: "changes", path: () => "/changes?since=2024-01-01", has: "table.changes tbody tr" },
  { name: "businesses", path: () => "/businesses", has: "main h1" },
  { name: "a business", path: () => `/businesses/${facts.taxId}`, has: "ul.timeline li", shot: "business" },
  { name: "rules", path: () => "/rules", has: "main table tbody tr" },
  { name: "the rule form", path: () => `/rules/${encodeURIComponent("every change")}`, has: "main form" },
  { name: "lists", path: () => "/lists", has: "main h1" },
  { name: "a list's members", path: () => "/lists/partners", has: "main table tbody tr" },
  { name: "payments", path: () => "/payments", has: "form.upload" },
  {
    name: "a batch of every verdict",
    path: () => `/payments/${facts.batchId}`,
    has: "table.payments",
    shot: "batch",
    from: "p.downloads",
  },
  { name: "users", path: () => "/users", has: "main table tbody tr" },
  { name: "runs and status", path: () => "/runs", has: "main h1" },
  { name: "coverage", path: () => "/coverage?weeks=10&end=2024-03-09", has: "table.calendar td.day-covered" },
  { name: "search", path: () => `/search?q=${encodeURIComponent(facts.nameWord)}`, has: "ul.hits li" },
];

/** The page's width and, when it is too wide, the elements that reach past the viewport. */
async function overflow(page: Page): Promise<{ width: number; past: string[] }> {
  return page.locator("body").evaluate((body) => {
    const root = body.ownerDocument.documentElement;
    const past: string[] = [];
    for (const el of body.querySelectorAll("*")) {
      const box = el.getBoundingClientRect();
      if (box.right > root.clientWidth + 0.5 && past.length < 8) {
        past.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(box.right)}`);
      }
    }
    return { width: root.scrollWidth, past };
  });
}

/** The screen as it is shown, or the screen's height of the page from the element `from` down. */
async function readmeShot(page: Page, name: string, from?: string): Promise<void> {
  const top = from ? (await page.locator(from).boundingBox())?.y : undefined;
  const viewport = page.viewportSize()!;
  const clip = top === undefined ? undefined : { x: 0, y: top - 8, ...viewport };
  await page.screenshot({ path: screenshotPath(name), fullPage: clip !== undefined, clip });
}

async function expectFits(page: Page, width: number, what: string): Promise<void> {
  const found = await overflow(page);
  expect(found.width, `${what}: ${found.past.join("; ")}`).toBeLessThanOrEqual(width);
}

/** The batch page's own measures: payee cells, badges beside the "why" cells, the table's box. */
async function batchMeasures(page: Page) {
  return page.locator("table.payments").evaluate((table) => {
    const rows = [...table.querySelectorAll("tbody tr")];
    const cell = (row: (typeof rows)[number], n: number) => row.children[n]!.getBoundingClientRect();
    const box = table.parentElement!;
    return {
      rows: rows.length,
      payeeWidths: rows.map((row) => Math.round(cell(row, 1).width)),
      // A badge overlaps the "why" cell where it reaches past the cell's left edge on the same line.
      overlaps: rows.filter((row) => {
        const badge = row.querySelector(".verdict")!.getBoundingClientRect();
        const why = cell(row, 5);
        const sideBySide = why.top < badge.bottom && why.bottom > badge.top;
        return sideBySide && badge.right > why.left + 0.5 && badge.left < why.right;
      }).length,
      inner: { scroll: box.scrollWidth, client: box.clientWidth },
    };
  });
}

describe.each(LOCALES)("the console in $locale", ({ locale, admin, language }) => {
  describe.each(WIDTHS)("at %i px", (width) => {
    let page: Page;
    beforeAll(async () => {
      page = await pageAsking(browser, language);
      await page.setViewportSize({ width, height: width === 1280 ? 1000 : 812 });
      await signInThroughForm(page, w.web.url, admin);
    });
    afterAll(async () => {
      await page?.close();
    });

    it.each(PAGES)("$name fits", async ({ name, path, has, shot, from }) => {
      await page.goto(`${w.web.url}${path()}`);
      expect(await page.locator(has).count(), `${name}: ${has}`).toBeGreaterThan(0);
      expect(await page.locator("html").getAttribute("lang")).toBe(locale);
      if (shot && locale === "hu")
        await readmeShot(page, `readme-${shot}-${width}.png`, width === 375 ? from : undefined);
      await expectFits(page, width, `${name} at ${width} px in ${locale}`);
    });

    it("the batch of every verdict keeps its payee column readable and its badges out of the why column", async () => {
      await page.goto(`${w.web.url}/payments/${facts.batchId}`);
      const m = await batchMeasures(page);
      expect(m.rows).toBe(17);
      expect(Math.min(...m.payeeWidths)).toBeGreaterThanOrEqual(120);
      expect(m.overlaps).toBe(0);
      expect(m.inner.scroll).toBeLessThanOrEqual(m.inner.client);
      expect(await page.locator(".counts > *").count()).toBe(2 + 17);
      // Cards or not, each cell is named by its column, for the eye (data-label) and for screen readers.
      const unlabelled = await page
        .locator("table.payments tbody td")
        .evaluateAll(
          (cells) =>
            cells.filter((cell) => cell.textContent!.trim() !== "" && !cell.getAttribute("data-label"))
              .length,
        );
      expect(unlabelled).toBe(0);
      expect(await page.locator("table.payments tbody td[data-label]").count()).toBeGreaterThan(17 * 5);
      const cdp = await page.context().newCDPSession(page);
      const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
        nodes: { role?: { value: string } }[];
      };
      const roles = nodes.map((n) => n.role?.value);
      expect(roles.filter((role) => role === "columnheader").length).toBeGreaterThanOrEqual(6);
      expect(roles.filter((role) => role === "cell").length).toBeGreaterThanOrEqual(17 * 6);
      await cdp.detach();
    });

    it("the column choice for an unknown header fits, its preview scrolling in its own box", async () => {
      await page.goto(`${w.web.url}/payments`);
      await page.setInputFiles('input[type="file"]', screenshotPath("fit-columns.csv"));
      await page.click('form.upload button[type="submit"]');
      await page.waitForSelector("form.columns");
      await expectFits(page, width, `the column choice at ${width} px in ${locale}`);
    });

    it("a page that does not exist fits", async () => {
      await page.goto(`${w.web.url}/alerts/999999999`);
      await expectFits(page, width, `not found at ${width} px in ${locale}`);
    });

    it("the sign-in page fits", async () => {
      const visitor = await pageAsking(browser, language);
      await visitor.setViewportSize({ width, height: 812 });
      await visitor.context().clearCookies();
      await visitor.goto(`${w.web.url}/login`);
      await expectFits(visitor, width, `login at ${width} px in ${locale}`);
      await visitor.close();
      // The cookies cleared above were this locale's session too: sign in again for what follows.
      await signInThroughForm(page, w.web.url, admin);
    });
  });
});
