/**
 * `regwatch payments report BATCH --pdf FILE`: the evidence report of a batch recorded by
 * `payments check --record`, read back as a reader's tools see it (pdftotext, pdfinfo, a page
 * rendered to PNG): A4, Hungarian letters embedded, the file's name, size and SHA-256, who checked
 * it and when, the columns, every verdict, the evidence per payee, the confirmations, the totals,
 * regwatch's version, "n / N"; the same batch at the same moment gives the same bytes.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveBusinesses } from "../../src/parse/save-businesses.ts";
import { verifyPayee } from "../../src/payments/verification.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { pkg } from "../helpers/package-manifest.ts";
import { pdfInfo, pdfText, renderFirstPage } from "../helpers/pdf.ts";
import { companyRecord } from "../payments/chunk-fixtures.ts";
import {
  account,
  accountList,
  daysAgo,
  seedChange,
  taxBase,
  watch,
  writeBatch,
} from "../payments/fixtures.ts";

let test: TestDatabase;
let env: Record<string, string>;
let dir: string;
let batchFile: string;
let batchId: string;

const CHANGED = taxBase(5_100_001);
const STEADY = taxBase(5_100_002);
const OLD = account(511);
const NEW = account(512);
const STEADY_ACCOUNT = account(513);
/** Debian's libfaketime (.ci/run installs the faketime package when none of these exists). */
const FAKETIME_LIB = [
  "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
  "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
  "/usr/lib/faketime/libfaketime.so.1",
].find((file) => existsSync(file));

/** The command on a clock stopped at `moment` (libfaketime), so two runs make their reports at the same instant. */
const at = (moment: string) => {
  if (!FAKETIME_LIB) throw new Error("libfaketime is not installed (Debian package faketime)");
  return {
    LD_PRELOAD: FAKETIME_LIB,
    FAKETIME: moment,
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
  };
};

beforeAll(async () => {
  test = await createTestDatabase();
  env = { DATABASE_URL: test.url, REGWATCH_TZ: "Europe/Budapest" };
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-evidence-"));
  const sql = test.db.sql;
  await saveBusinesses(
    sql,
    [
      companyRecord(CHANGED, [OLD, NEW], { full_name: "Őrző Űrtechnika Kft.", short_name: null }),
      companyRecord(STEADY, [STEADY_ACCOUNT], { full_name: "Kőbányai Sörfőző Zrt.", short_name: null }),
    ],
    "Europe/Budapest",
  );
  await watch(sql, "k1", CHANGED, STEADY);
  await seedChange(sql, {
    taxId: CHANGED,
    day: daysAgo(5),
    file: { status: "fetched", parseStatus: "parsed" },
    value: { old: accountList(OLD), new: accountList(OLD, NEW) },
    firstSeenAt: new Date(Date.now() - 60_000).toISOString(),
  });
  await verifyPayee(
    test.db,
    {
      account: STEADY_ACCOUNT,
      taxId: STEADY,
      by: "Kiss Éva",
      note: "telefonon megerősítve",
      at: new Date(Date.now() - 60_000),
    },
    "Europe/Budapest",
  );
  batchFile = await writeBatch(dir, "utalások-december.csv", [
    "Adószám;Számlaszám;Összeg;Pénznem;Kedvezményezett",
    `${CHANGED};${NEW};125000;HUF;Őrző Űrtechnika Kft.`,
    `${STEADY};${STEADY_ACCOUNT};99000;HUF;Kőbányai Sörfőző Zrt.`,
  ]);
  const checked = await runCli(["payments", "check", batchFile, "--record", "--by", "Szőke Ödön"], env);
  expect(checked.code, checked.stderr).toBe(2);
  batchId = /recorded as batch (\S+)/.exec(checked.stdout)![1]!;
}, 120_000);

afterAll(async () => {
  await test?.drop();
});

describe("payments report --pdf", () => {
  it("writes an A4 report in Hungarian that names the file, its checker, every verdict and the evidence", async () => {
    const file = path.join(dir, "jegyzőkönyv.pdf");
    const result = await runCli(["payments", "report", batchId, "--pdf", file, "--lang", "hu"], env);
    expect(result.stderr).toContain("evidence report written to");
    expect(result.code).toBe(0);

    const info = pdfInfo(file);
    expect(info.pageSize).toMatch(/^595\.\d+ x 841\.\d+ pts \(A4\)/);
    expect(info.pages).toBeGreaterThanOrEqual(1);

    const text = pdfText(file);
    const body = await readFile(batchFile);
    const sha = createHash("sha256").update(body).digest("hex");
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain("Ellenőrzési jegyzőkönyv: utalások-december.csv fizetési köteg");
    expect(flat).toContain(sha);
    expect(flat).toContain(`${(await stat(batchFile)).size} bájt`);
    expect(flat).toContain("Szőke Ödön");
    expect(flat).toMatch(
      /Feltöltés és ellenőrzés ideje \d{4}\. \d{2}\. \d{2}\. \d{2}:\d{2} CET \(Europe\/Budapest\)/,
    );
    expect(flat).toContain(batchId);
    expect(flat).toContain("„Számlaszám”");
    expect(flat).toContain("„Kedvezményezett”");
    expect(flat).toContain("Őrző Űrtechnika Kft.");
    expect(flat).toContain("Kőbányai Sörfőző Zrt.");
    // Every row's verdict in Hungarian, with what to do next.
    expect(flat).toContain("lekérdezett cégadatlap");
    expect(flat).toContain(`${CHANGED}-2.json (letöltve)`);
    // The confirmation made before the check: who, and why.
    expect(flat).toContain("Kiss Éva");
    expect(flat).toContain("telefonon megerősítve");
    expect(flat).toContain("Visszatartott és kiengedett összegek");
    expect(flat).toContain(`regwatch ${pkg.version}`);
    expect(flat).toMatch(new RegExp(`1 ?/ ?${info.pages}`));
    expect(flat).toContain(`regwatch payments report ${batchId}`);

    const page = renderFirstPage(file, path.join(dir, "page1"));
    expect((await readFile(page.png)).subarray(1, 4).toString()).toBe("PNG");
    expect(page.inkShare).toBeGreaterThan(0.01);
    expect(page.inkShare).toBeLessThan(0.5);
  });

  it("says the same in English", async () => {
    const file = path.join(dir, "report-en.pdf");
    const result = await runCli(["payments", "report", batchId, "--pdf", file, "--lang", "en"], env);
    expect(result.code).toBe(0);
    const flat = pdfText(file).replace(/\s+/g, " ");
    expect(flat).toContain("Evidence report: payment batch utalások-december.csv");
    expect(flat).toContain("Totals held and released");
    expect(flat).toContain("Szőke Ödön");
  });

  it("gives the same bytes at the same moment, and differs only in the moment at another", async () => {
    const files = ["same-1.pdf", "same-2.pdf", "later.pdf"].map((f) => path.join(dir, f));
    const moments = ["2026-12-06 10:00:00", "2026-12-06 10:00:00", "2026-12-07 15:30:00"];
    for (const [i, file] of files.entries()) {
      const result = await runCli(["payments", "report", batchId, "--pdf", file, "--lang", "hu"], {
        ...env,
        ...at(moments[i]!),
      });
      expect(result.code, result.stderr).toBe(0);
    }
    const [first, second] = await Promise.all(files.slice(0, 2).map((f) => readFile(f)));
    expect(first!.equals(second!)).toBe(true);

    const lines = (file: string) => pdfText(file).split("\n");
    const [a, b] = [lines(files[0]!), lines(files[2]!)];
    expect(a.length).toBe(b.length);
    const differing = a.flatMap((line, i) => (line === b[i] ? [] : [[line, b[i]!]]));
    expect(differing.length).toBeGreaterThan(0);
    for (const [before, after] of differing) {
      expect(before).toMatch(/2026\. 12\. 06\. 1[01]:00/);
      expect(after).toMatch(/2026\. 12\. 07\. 16:30/);
    }
  });

  it("exits 1 for a batch that does not exist, 64 for an id out of shape or no --pdf", async () => {
    const file = path.join(dir, "none.pdf");
    const missing = await runCli(
      ["payments", "report", "00000000-0000-4000-8000-000000000000", "--pdf", file],
      env,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no payment batch with id 00000000-0000-4000-8000-000000000000");
    const bad = await runCli(["payments", "report", "batch-7", "--pdf", file], env);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain("batch-7 is not a batch id");
    const noPdf = await runCli(["payments", "report", batchId], env);
    expect(noPdf.code).toBe(64);
    expect(noPdf.stderr).toContain("--pdf FILE is required");
    const noFolder = await runCli(
      ["payments", "report", batchId, "--pdf", path.join(dir, "nope", "x.pdf")],
      env,
    );
    expect(noFolder.code).toBe(64);
    expect(noFolder.stderr).toContain("does not exist or is not writable");
  });
});
