/**
 * Issue 34, point 6 over HTTP, against a database filled by a sync against the emulator: an upload
 * whose header the reader does not know shows the file's first rows and asks which column is which
 * (the choice kept for that header, the next file with it read at once); an `.xlsx` upload is read
 * through its first sheet and a zip bomb is refused unread; "online" asks the registry; next steps
 * are in the console's words; "Check again" judges the stored rows into a new, linked batch.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createDeflateRaw } from "node:zlib";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkZipBounds } from "../../src/formats/read/zip-bounds.ts";
import {
  createUser,
  postForm,
  type SignedIn,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { emulatorEnv } from "../helpers/sync.ts";
import { type PagesWorld, startPagesWorld } from "./pages-fixture.ts";

const UUID = /^\/payments\/([0-9a-f-]{36})$/;

describe("payments in the browser's console", () => {
  let w: PagesWorld;
  let web: TestConsole;
  let reviewer: SignedIn;
  let known: { tax_id: string; bank_account: string }[];
  let dir: string;

  beforeAll(async () => {
    w = await startPagesWorld({ seed: 13 });
    web = await startTestConsole(w.t.db, {
      now: new Date("2024-03-10T08:00:00+01:00"),
      env: emulatorEnv(w.emulator),
    });
    await createUser(w.t.db, "vera", "reviewer");
    reviewer = await signIn(web.url, "vera");
    known = await w.t.db.sql<{ tax_id: string; bank_account: string }[]>`
      select distinct on (tax_id) tax_id, bank_account from regwatch.v_bank_accounts
      where tax_id = any(${w.taxIds}::text[]) order by tax_id, bank_account limit 3`;
    expect(known.length).toBeGreaterThan(1);
    dir = await mkdtemp(path.join(tmpdir(), "regwatch-pay-"));
  }, 240_000);
  afterAll(async () => {
    await web?.close();
    await w?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const upload = (file: Blob, name: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.append("_csrf", reviewer.csrf);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append("file", file, name);
    return fetch(`${web.url}/payments`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: reviewer.cookie },
      body: form,
    });
  };
  const batchCount = async () =>
    (await w.t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.payment_batches`)[0]!.n;

  const oddHeader = "Partner számlaszáma;Partner adószám;Utalás összege;Megjegyzés";
  const oddFile = () =>
    [oddHeader, ...known.map((k, i) => `${k.bank_account};${k.tax_id};${(i + 1) * 100};INV-${i}`)].join(
      "\r\n",
    );

  it("asks which column is which for an unknown header, keeps the choice, and reads the next such file at once", async () => {
    const before = await batchCount();
    const asked = await upload(new Blob([oddFile()]), "export.csv");
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain("Which column is which?");
    expect(html).toContain(known[0]!.bank_account);
    expect(html).not.toContain("--columns");
    expect(await batchCount()).toBe(before);
    const held = /name="held" value="([0-9a-f-]{36})"/.exec(html)![1]!;
    const wrong = await postForm(`${web.url}/payments/columns`, reviewer, {
      held,
      tax_id: "Partner adószám",
    });
    expect(wrong.status).toBe(400);
    const heldAgain = /name="held" value="([0-9a-f-]{36})"/.exec(await wrong.text())![1]!;
    const chosen = await postForm(`${web.url}/payments/columns`, reviewer, {
      held: heldAgain,
      bank_account: "Partner számlaszáma",
      tax_id: "Partner adószám",
      amount: "Utalás összege",
    });
    expect(chosen.status).toBe(303);
    const id = UUID.exec(chosen.headers.get("location") ?? "")![1]!;
    const rows = await w.t.db.sql<{ tax_id: string; amount: string }[]>`
      select tax_id, amount::text from regwatch.payment_checks where batch_id = ${id} order by line`;
    expect(rows.map((r) => r.tax_id)).toEqual(known.map((k) => k.tax_id));
    const [choice] = await w.t.db.sql<{ columns: Record<string, string>; chosen_by: string }[]>`
      select columns, chosen_by from regwatch.payment_column_choices`;
    expect(choice).toEqual({
      columns: { bank_account: "Partner számlaszáma", tax_id: "Partner adószám", amount: "Utalás összege" },
      chosen_by: "vera",
    });
    expect(await w.t.db.sql`select 1 from regwatch.held_uploads`).toHaveLength(0);
    // The same header again: read with the kept choice, no question asked.
    const again = await upload(new Blob([oddFile()]), "export-2.csv");
    expect(again.status).toBe(303);
  });

  it("reads an .xlsx upload through its first sheet, with the same header detection", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Utalások");
    sheet.addRow(["Utalási lista"]);
    sheet.addRow(["Adószám", "Számlaszám", "Összeg", "Pénznem"]);
    for (const [i, k] of known.entries()) sheet.addRow([k.tax_id, k.bank_account, 1000 + i, "HUF"]);
    workbook.addWorksheet("Other").addRow(["nothing", "here"]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const answer = await upload(new Blob([bytes]), "utalas.xlsx");
    expect(answer.status).toBe(303);
    const id = UUID.exec(answer.headers.get("location") ?? "")![1]!;
    const rows = await w.t.db.sql<{ line: number; tax_id: string; amount: string }[]>`
      select line, tax_id, amount::text from regwatch.payment_checks where batch_id = ${id} order by line`;
    expect(rows).toEqual(known.map((k, i) => ({ line: i + 3, tax_id: k.tax_id, amount: String(1000 + i) })));
  });

  it("refuses a zip bomb unread, over HTTP and by the bound itself", async () => {
    const bomb = path.join(dir, "bomb.xlsx");
    await writeZeroBomb(bomb, 300 * 1024 * 1024);
    const before = await batchCount();
    const answer = await upload(new Blob([await readFile(bomb)]), "bomb.xlsx");
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("unpacks to more than 256 MiB");
    expect(await batchCount()).toBe(before);
    await expect(checkZipBounds(bomb, 1024 * 1024)).rejects.toThrow(/unpacks to more than 1 MiB/);
  });

  it("gives next steps in the console's words and asks the registry when online is ticked", async () => {
    const stranger = "10000001"; // a valid tax id no source knows: unknown_business
    const file = [
      "Adószám;Számlaszám;Összeg",
      `${stranger};11773016-11111018-00000000;5`,
      `${known[0]!.tax_id};${known[0]!.bank_account};7`,
    ].join("\n");
    const offline = await upload(new Blob([file]), "b.csv");
    const id = UUID.exec(offline.headers.get("location") ?? "")![1]!;
    const steps = await w.t.db.sql<{ verdict: string; next_step: string | null }[]>`
      select verdict, next_step from regwatch.payment_checks where batch_id = ${id} order by line`;
    expect(steps[0]!.verdict).toBe("unknown_business");
    for (const s of steps) {
      expect(s.next_step ?? "").not.toMatch(/regwatch |--online|`/);
    }
    expect(steps[0]!.next_step).toContain("“Check again” with “online” ticked");
    w.emulator.resetLog();
    const online = await upload(new Blob([file]), "b.csv", { online: "1" });
    expect(online.status).toBe(303);
    expect(w.emulator.requests().filter((r) => r.endpoint.startsWith("GET /v1/")).length).toBeGreaterThan(0);
  });

  it("checks a batch again into a new batch linked to the old one, which keeps its verdicts", async () => {
    const file = ["Adószám;Számlaszám;Összeg", ...known.map((k) => `${k.tax_id};${k.bank_account};9`)].join(
      "\n",
    );
    const first = UUID.exec((await upload(new Blob([file]), "c.csv")).headers.get("location") ?? "")![1]!;
    const old = await w.t.db
      .sql`select line, verdict, next_step from regwatch.payment_checks where batch_id = ${first} order by line`;
    expect((await postForm(`${web.url}/payments/${first}/recheck`, w.reader, {})).status).toBe(403);
    expect((await postForm(`${web.url}/payments/${first}/recheck`, reviewer, {}, null)).status).toBe(403);
    const again = await postForm(`${web.url}/payments/${first}/recheck`, reviewer, {});
    expect(again.status).toBe(303);
    const second = UUID.exec(again.headers.get("location") ?? "")![1]!;
    expect(second).not.toBe(first);
    const [link] = await w.t.db.sql<{ rechecked_from: string; checked_by: string; file_name: string }[]>`
      select rechecked_from::text, checked_by, file_name from regwatch.payment_batches where id = ${second}`;
    expect(link).toEqual({ rechecked_from: first, checked_by: "vera", file_name: "c.csv" });
    const rows = await w.t.db.sql<{ line: number; tax_id: string; bank_account: string; amount: string }[]>`
      select line, tax_id, bank_account, amount::text from regwatch.payment_checks where batch_id = ${second} order by line`;
    expect(rows.map((r) => [r.line, r.tax_id, r.amount])).toEqual(
      known.map((k, i) => [i + 2, k.tax_id, "9"]),
    );
    expect(
      await w.t.db
        .sql`select line, verdict, next_step from regwatch.payment_checks where batch_id = ${first} order by line`,
    ).toEqual(old);
  });
});

/** A zip archive with one entry of `size` zero bytes, deflated (a few hundred KiB on disk). */
async function writeZeroBomb(file: string, size: number): Promise<void> {
  const name = Buffer.from("xl/worksheets/sheet1.xml");
  const body = path.join(path.dirname(file), "body.bin");
  const chunk = Buffer.alloc(1024 * 1024);
  await pipeline(
    Readable.from(
      (function* () {
        for (let done = 0; done < size; done += chunk.length) yield chunk;
      })(),
    ),
    createDeflateRaw(),
    createWriteStream(body),
  );
  const compressed = await readFile(body);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(1000, 22); // the declared size lies
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(1000, 24);
  central.writeUInt16LE(name.length, 28);
  central.writeUInt32LE(0, 42);
  const dirOffset = local.length + name.length + compressed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(dirOffset, 16);
  const out = createWriteStream(file);
  for (const part of [local, name, compressed, central, name, end]) out.write(part);
  out.end();
  await once(out, "close");
}
