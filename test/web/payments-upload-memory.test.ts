/**
 * A payment check's memory is bounded by bytes, not rows (issue 48, point 13): about 100 MB in
 * 1,500 rows of about 64 KiB (bench/upload-rss.ts writes them) keep the built console under
 * 256 MB at its peak for one upload (cells starting with "=", which the store keeps guarded
 * copies of) and for one held for a column choice and then checked, and under 512 MB with three
 * uploads at once, and `payments check --record` under
 * 256 MB. The peaks are the processes' own (the kernel's VmHWM, GNU time's %M), read as they end.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../bench/payments.ts";
import { binNodeFlags } from "../../bench/product-bin.ts";
import { highWaterMb, uploadFile, WIDE_ROWS, writeWideBatch } from "../../bench/upload-rss.ts";
import { BIN } from "../helpers/cli.ts";
import { createUser, postForm, signIn, startWebProcess } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const TIMEOUT = 180_000;

let t: TestDatabase;
let dir: string;
let plain: string;
let formulas: string;
let unknown: string;
/** A header the reader does not know: the upload is held until the clerk says which column is which. */
const UNKNOWN_HEADER = ["Konto", "Adoszam", "Osszeg", "Nev", "Kozlemeny"] as const;

beforeAll(async () => {
  t = await createTestDatabase();
  await createUser(t.db, "vera", "reviewer");
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-upload-memory-"));
  plain = path.join(dir, "wide.csv");
  formulas = path.join(dir, "wide-formulas.csv");
  unknown = path.join(dir, "wide-unknown-header.csv");
  const sizes = await Promise.all([
    writeWideBatch(plain, WIDE_ROWS),
    writeWideBatch(formulas, WIDE_ROWS, { formulas: true }),
    writeWideBatch(unknown, WIDE_ROWS, { header: UNKNOWN_HEADER.join(";") }),
  ]);
  for (const bytes of sizes) expect(bytes).toBeGreaterThan(95e6);
}, TIMEOUT);
afterAll(async () => {
  await t?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const batchRows = async () =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.payment_checks`)[0]!.n;

describe("about 100 MB of 64 KiB rows", () => {
  it(
    "the console: one upload, and one held for a column choice, under 256 MB at its peak; three at once under 512 MB",
    async () => {
      const web = await startWebProcess(BIN, { DATABASE_URL: t.url }, binNodeFlags(["web"]));
      try {
        const vera = await signIn(web.url, "vera");
        const one = await uploadFile(web.url, vera, formulas);
        expect(one.status).toBe(303);
        expect(await batchRows()).toBe(WIDE_ROWS);
        // Held for a column choice (kept in the database), then checked with it.
        const asked = await uploadFile(web.url, vera, unknown);
        expect(asked.status).toBe(200);
        const held = /name="held" value="([^"]+)"/.exec(asked.page)![1]!;
        const [bank_account, tax_id, amount, name, reference] = UNKNOWN_HEADER;
        const chosen = await postForm(`${web.url}/payments/columns`, vera, {
          held,
          ...{ bank_account, tax_id, amount, name, reference },
        });
        expect(chosen.status).toBe(303);
        expect(await batchRows()).toBe(2 * WIDE_ROWS);
        const single = await highWaterMb(web.child.pid!);
        expect(single).toBeGreaterThan(0);
        expect(single).toBeLessThanOrEqual(256);

        const three = await Promise.all([0, 1, 2].map(() => uploadFile(web.url, vera, plain)));
        const checked = three.filter((a) => a.status === 303).length;
        // The console checks two at once; a third at the same moment may be told to come back.
        expect(checked).toBeGreaterThanOrEqual(2);
        for (const answer of three)
          if (answer.status !== 303) expect([answer.status, answer.retryAfter]).toEqual([503, "10"]);
        expect(await batchRows()).toBe(WIDE_ROWS * (2 + checked));
        expect(await highWaterMb(web.child.pid!)).toBeLessThanOrEqual(512);
      } finally {
        await web.stop();
      }
    },
    TIMEOUT,
  );

  it(
    "payments check --record: under 256 MB at its peak",
    async () => {
      const run = await runCheck([plain, "--record", "--csv"], path.join(dir, "out.csv"), {
        DATABASE_URL: t.url,
        REGWATCH_LOG_LEVEL: "warn",
      });
      expect(run.peakMb).toBeGreaterThan(0);
      expect(run.peakMb).toBeLessThanOrEqual(256);
    },
    TIMEOUT,
  );
});
