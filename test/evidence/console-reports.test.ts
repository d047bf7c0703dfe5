/**
 * The evidence reports from the console over real HTTP, and an alert's decision history from the
 * CLI: the batch page links its PDF, which a reviewer and a reader (each in their own language)
 * download; the alert page links the history's PDF, which names who did what and when, with the
 * note. The same moment gives the same bytes; an unknown batch or alert is a 404.
 */
import { createHash } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import {
  createUser,
  getPage,
  postForm,
  type SignedIn,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { pdfInfo, pdfText } from "../helpers/pdf.ts";
import { addNotifyRule, nameBusiness, raiseAlerts } from "../web/fixtures.ts";

let t: TestDatabase;
let web: TestConsole;
let reader: SignedIn;
let reviewer: SignedIn;
let dir: string;
let batchId: string;
let alertId: number;
const upload = [
  "adószám;számlaszám;összeg;kedvezményezett",
  "12345678;11773016-11111018;5000;Kovács Ödön Kft.",
].join("\n");

/** The answer's body saved as a PDF file, and its text as pdftotext reads it, blanks folded. */
async function savedPdf(
  answer: Response,
  name: string,
): Promise<{ file: string; text: string; bytes: Buffer }> {
  expect(answer.status).toBe(200);
  expect(answer.headers.get("content-type")).toBe("application/pdf");
  const bytes = Buffer.from(await answer.arrayBuffer());
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return { file, text: pdfText(file).replace(/\s+/g, " "), bytes };
}

beforeAll(async () => {
  t = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-evidence-web-"));
  web = await startTestConsole(t.db, { now: new Date("2026-11-25T09:00:00Z") });
  await createUser(t.db, "rita", "reader");
  await createUser(t.db, "viktor", "reviewer");
  await t.db.sql`update regwatch.console_users set locale = 'hu' where name = 'rita'`;
  reader = await signIn(web.url, "rita");
  reviewer = await signIn(web.url, "viktor");

  const form = new FormData();
  form.append("_csrf", reviewer.csrf);
  form.append("file", new Blob([upload], { type: "text/csv" }), "utalás-ősz.csv");
  const answer = await fetch(`${web.url}/payments`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: reviewer.cookie },
    body: form,
  });
  batchId = /^\/payments\/([0-9a-f-]{36})$/.exec(answer.headers.get("location") ?? "")![1]!;

  await addNotifyRule(t.db.sql);
  await nameBusiness(t.db.sql, "11111111", "Őrbottyáni Fűrészüzem Kft.");
  alertId = (
    await raiseAlerts(t.db.sql, [
      {
        taxId: "11111111",
        date: "2026-11-20",
        headings: ["seat"],
        lists: ["suppliers"],
        values: { seat: ["Fő utca 1.", "Kossuth tér 2."] },
      },
    ])
  )[0]!;
  expect(
    (await postForm(`${web.url}/alerts/${alertId}/ack`, reviewer, { note: "felhívtam a szállítót" })).status,
  ).toBe(303);
  expect(
    (await postForm(`${web.url}/alerts/${alertId}/comment`, reviewer, { note: "új székhely rendben" }))
      .status,
  ).toBe(303);
}, 120_000);

afterAll(async () => {
  await web?.close();
  await t?.drop();
});

describe("the batch page's evidence report", () => {
  it("is linked from the batch page and downloads as the uploaded file's evidence, in English for viktor", async () => {
    const page = await (await getPage(`${web.url}/payments/${batchId}`, reviewer)).text();
    expect(page).toContain(`href="/payments/${batchId}.pdf"`);
    const pdf = await savedPdf(await getPage(`${web.url}/payments/${batchId}.pdf`, reviewer), "en.pdf");
    expect(pdfInfo(pdf.file).pageSize).toMatch(/^595\.\d+ x 841\.\d+ pts \(A4\)/);
    expect(pdf.text).toContain("Evidence report: payment batch utalás-ősz.csv");
    expect(pdf.text).toContain(createHash("sha256").update(upload).digest("hex"));
    expect(pdf.text).toContain(`${Buffer.byteLength(upload)} bytes`);
    expect(pdf.text).toContain("viktor");
    expect(pdf.text).toMatch(/Uploaded and checked \d{2} \w{3} \d{4}, \d{2}:\d{2} CET \(Europe\/Budapest\)/);
    expect(pdf.text).toContain("Report made 25 Nov 2026, 10:00 CET");
    expect(pdf.text).toContain("Kovács Ödön Kft.");
  });

  it("downloads for a reader too, in Hungarian, and the same moment gives the same bytes", async () => {
    const first = await savedPdf(await getPage(`${web.url}/payments/${batchId}.pdf`, reader), "hu-1.pdf");
    const second = await savedPdf(await getPage(`${web.url}/payments/${batchId}.pdf`, reader), "hu-2.pdf");
    expect(first.text).toContain("Ellenőrzési jegyzőkönyv: utalás-ősz.csv fizetési köteg");
    expect(first.text).toContain("Visszatartott és kiengedett összegek");
    expect(first.bytes.equals(second.bytes)).toBe(true);
  });

  it("names the same file after Check again, which copies the batch's size and SHA-256", async () => {
    const again = await postForm(`${web.url}/payments/${batchId}/recheck`, reviewer, {});
    expect(again.status).toBe(303);
    const second = /^\/payments\/([0-9a-f-]{36})/.exec(again.headers.get("location") ?? "")![1]!;
    expect(second).not.toBe(batchId);
    const pdf = await savedPdf(await getPage(`${web.url}/payments/${second}.pdf`, reviewer), "again.pdf");
    expect(pdf.text).toContain(createHash("sha256").update(upload).digest("hex"));
    expect(pdf.text).toContain(`Checks again the rows of batch ${batchId}`);
  });

  it("is a 404 for a batch that does not exist", async () => {
    const answer = await getPage(`${web.url}/payments/00000000-0000-4000-8000-000000000000.pdf`, reviewer);
    expect(answer.status).toBe(404);
  });
});

describe("an alert's decision history", () => {
  it("is linked from the alert page and says who did what, when and why, in the reader's language", async () => {
    const page = await (await getPage(`${web.url}/alerts/${alertId}`, reader)).text();
    expect(page).toContain(`href="/alerts/${alertId}/history.pdf"`);
    const pdf = await savedPdf(
      await getPage(`${web.url}/alerts/${alertId}/history.pdf`, reader),
      "alert-hu.pdf",
    );
    expect(pdf.text).toContain(`${alertId}. riasztás: döntési előzmények`);
    expect(pdf.text).toContain("Őrbottyáni Fűrészüzem Kft.");
    expect(pdf.text).toMatch(/viktor tudomásul vette felhívtam a szállítót/);
    expect(pdf.text).toMatch(/viktor megjegyzést írt új székhely rendben/);
    expect(pdf.text).toMatch(/1 ?\/ ?1/);
    expect((await getPage(`${web.url}/alerts/999999/history.pdf`, reader)).status).toBe(404);
  });

  it("exports the same way from the command line: alerts report ID --pdf FILE", async () => {
    const file = path.join(dir, "alert-en.pdf");
    const env = { DATABASE_URL: t.url, REGWATCH_TZ: "Europe/Budapest" };
    const result = await runCli(["alerts", "report", String(alertId), "--pdf", file, "--lang", "en"], env);
    expect(result.code, result.stderr).toBe(0);
    const text = pdfText(file).replace(/\s+/g, " ");
    expect(text).toContain(`Decision history of alert ${alertId}`);
    expect(text).toMatch(/viktor acknowledged felhívtam a szállítót/);
    const missing = await runCli(["alerts", "report", "999999", "--pdf", file], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no alert with id 999999");
  });
});
