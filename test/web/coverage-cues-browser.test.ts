/**
 * The coverage calendar without colour, in a real browser (Debian's Chromium through
 * playwright-core), in Hungarian and in English: every day cell carries its state's mark and,
 * for screen readers, its state in words; each state has a mark of its own, which the legend
 * explains beside the colour; the page passes axe-core's WCAG 2.1 AA check.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addConsoleUser } from "../../src/console/users.ts";
import { hashPassword } from "../../src/web/passwords.ts";
import { blockingViolations } from "../helpers/axe.ts";
import {
  launchBrowser,
  pageAsking,
  screenshotPath,
  signInThroughForm,
  type TestBrowser,
} from "../helpers/browser.ts";
import { startTestConsole, TEST_PASSWORD, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
let web: TestConsole;
let browser: TestBrowser;

beforeAll(async () => {
  t = await createTestDatabase();
  const { sql } = t.db;
  await sql`insert into regwatch.watch_lists (list_key, list_name, created_at)
            values ('key-main', 'suppliers', '2026-10-05T08:00:00Z')`;
  await sql`insert into regwatch.coverage (list_key, start_date, end_date)
            values ('key-main', '2026-10-05', '2026-11-10')`;
  await sql`insert into regwatch.coverage (list_key, start_date, end_date, accepted_reason)
            values ('key-main', '2026-11-11', '2026-11-12', 'reviewed by hand')`;
  web = await startTestConsole(t.db, { now: new Date("2026-11-27T10:00:00Z") });
  web.setNow(new Date());
  const passwordHash = await hashPassword(TEST_PASSWORD);
  await addConsoleUser(sql, { name: "hanna", role: "reader", passwordHash, locale: "hu" });
  await addConsoleUser(sql, { name: "edward", role: "reader", passwordHash, locale: "en" });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.drop();
});

/** Each state shown: its cells' marks and the words a screen reader hears. */
async function cellsByState(page: Page) {
  return page.locator("table.calendar td.day").evaluateAll((cells) =>
    cells.map((cell) => ({
      state: [...cell.classList].find((c) => c.startsWith("day-"))!.slice(4),
      mark: cell.querySelector(".mark")?.textContent ?? "",
      markHidden: cell.querySelector(".mark")?.getAttribute("aria-hidden") === "true",
      spoken: cell.querySelector(".visually-hidden")?.textContent ?? "",
    })),
  );
}

describe("the coverage calendar reads without colour", () => {
  for (const [user, asked, words] of [
    [
      "hanna",
      "en-GB",
      {
        gap: "hiányzik: esedékes, de nincs lefedve",
        covered: "lefedve: a nyilvántartásból beolvasva",
        legend: "A jelek és színek jelentése",
      },
    ],
    [
      "edward",
      "hu-HU",
      {
        gap: "missing: due but not covered",
        covered: "covered: read from the registry",
        legend: "What the marks and colours mean",
      },
    ],
  ] as const) {
    it(`marks every day's state for ${user}, explains the marks, and passes axe`, async () => {
      const page = await pageAsking(browser, asked);
      await signInThroughForm(page, web.url, user);
      await page.goto(`${web.url}/coverage?weeks=10&end=2026-11-27`);
      const cells = await cellsByState(page);
      const states = new Set(cells.map((c) => c.state));
      for (const state of ["covered", "accepted", "gap", "before"]) expect(states).toContain(state);
      // One mark per state, different for every state, on every cell.
      const marks = new Map<string, Set<string>>();
      for (const c of cells) {
        expect(c.mark, c.state).not.toBe("");
        expect(c.markHidden).toBe(true);
        marks.set(c.state, (marks.get(c.state) ?? new Set()).add(c.mark));
      }
      for (const [state, set] of marks) expect(set.size, state).toBe(1);
      const distinct = new Set([...marks.values()].map((s) => [...s][0]));
      expect(distinct.size).toBe(marks.size);
      expect(cells.find((c) => c.state === "gap")!.spoken).toBe(`: ${words.gap}`);
      expect(cells.find((c) => c.state === "covered")!.spoken).toBe(`: ${words.covered}`);
      // The legend names itself and pairs each mark with its words.
      const legend = page.getByRole("list", { name: words.legend });
      const items = await legend.locator("li").evaluateAll((lis) =>
        lis.map((li) => ({
          mark: li.querySelector(".day")?.textContent ?? "",
          text: li.textContent ?? "",
        })),
      );
      expect(items).toHaveLength(6);
      const gapItem = items.find((i) => i.text.includes(words.gap))!;
      expect(gapItem.mark).toBe([...marks.get("gap")!][0]);
      expect(await blockingViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`coverage-marks-${user}.png`), fullPage: true });
      await page.close();
    });
  }
});
