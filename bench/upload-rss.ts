/**
 * The console's peak memory on the widest payment batches (issue 48, point 13): a file of about
 * 100 MB in 1,500 rows of about 64 KiB (a payee's name and reference of 32 KiB each, with a
 * Hungarian letter in each so V8 keeps them two bytes a character), uploaded to the built console
 * (`regwatch web`, started with the Node flags bin/regwatch.js gives it) once, then three at once.
 * The figure is the console process's peak resident set (the kernel's VmHWM), read after the
 * answers: `upload_peak_rss_mb` after one upload, `upload_three_peak_rss_mb` after three.
 */
import { once } from "node:events";
import { createWriteStream, openAsBlob } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { addConsoleUser } from "../src/console/users.ts";
import { openDatabase } from "../src/db/connect.ts";
import { hashPassword } from "../src/web/passwords.ts";
import { type SignedIn, signIn, startWebProcess } from "../test/helpers/console.ts";
import { binNodeFlags, buildProduct, PRODUCT_BIN } from "./product-bin.ts";

/** Rows of the full run: 1,500 of about 64 KiB, about 100 MB. */
export const WIDE_ROWS = 1_500;
const CELL_CHARS = 32 * 1024 - 64;

/** The header of a wide batch: one the reader recognises. */
export const WIDE_HEADER = "bank_account;tax_id;amount;name;reference";

/**
 * Writes a payment batch of `rows` wide rows to `file` under `header` (each cell of text starting
 * with "=" when `formulas`: the store then keeps a guarded copy of it); its size in bytes.
 */
export async function writeWideBatch(
  file: string,
  rows: number,
  { formulas = false, header = WIDE_HEADER }: { formulas?: boolean; header?: string } = {},
): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, "drain");
  };
  await write(`${header}\n`);
  const lead = formulas ? "=" : "";
  for (let i = 0; i < rows; i++) {
    const account = `11773016-${String(10_000_000 + i)}-00000000`;
    const filler = String.fromCharCode(97 + (i % 26)).repeat(CELL_CHARS);
    await write(`${account};12345676-2-42;${1000 + i};${lead}Kő ${i} ${filler};${lead}Díj ${i} ${filler}\n`);
  }
  out.end();
  await once(out, "close");
  return bytes;
}

/** Peak resident set of a running process so far, from /proc (Linux), in MB; 0 where there is none. */
export async function highWaterMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Math.round((Number(kb) / 1024) * 10) / 10 : 0;
}

/** POSTs `file` to the console's upload form as `session`; the answer's status, Retry-After and page. */
export async function uploadFile(
  url: string,
  session: SignedIn,
  file: string,
): Promise<{ status: number; retryAfter: string | null; page: string }> {
  const form = new FormData();
  form.append("_csrf", session.csrf);
  form.append("file", await openAsBlob(file, { type: "text/csv" }), path.basename(file));
  const answer = await fetch(`${url}/payments`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: session.cookie },
    body: form,
  });
  const page = await answer.text();
  return { status: answer.status, retryAfter: answer.headers.get("retry-after"), page };
}

export async function uploadPeakRss(p: {
  rows: number;
  databaseUrl: string;
}): Promise<Record<string, number>> {
  buildProduct();
  const dir = await mkdtemp(path.join(tmpdir(), "regwatch-bench-upload-"));
  const db = await openDatabase({ databaseUrl: p.databaseUrl, dataDir: "" }, { max: 1 });
  try {
    const file = path.join(dir, "wide.csv");
    const bytes = await writeWideBatch(file, p.rows);
    const password = "bench password 1";
    // A second run on the same database finds the user there already (addConsoleUser says false).
    await addConsoleUser(db.sql, {
      name: "bench-upload",
      role: "reviewer",
      passwordHash: await hashPassword(password),
    });
    const web = await startWebProcess(PRODUCT_BIN, { DATABASE_URL: p.databaseUrl }, binNodeFlags(["web"]));
    try {
      const session = await signIn(web.url, "bench-upload", password);
      const idle = await highWaterMb(web.child.pid!);
      const one = await uploadFile(web.url, session, file);
      if (one.status !== 303) throw new Error(`the upload answered ${one.status}`);
      const single = await highWaterMb(web.child.pid!);
      const three = await Promise.all([0, 1, 2].map(() => uploadFile(web.url, session, file)));
      if (three.some((a) => a.status !== 303 && a.status !== 503))
        throw new Error(`three uploads answered ${three.map((a) => a.status).join(", ")}`);
      return {
        upload_rows: p.rows,
        upload_file_mb: Math.round(bytes / 1e5) / 10,
        upload_idle_rss_mb: idle,
        upload_peak_rss_mb: single,
        upload_three_peak_rss_mb: await highWaterMb(web.child.pid!),
        upload_three_refused: three.filter((a) => a.status === 503).length,
      };
    } finally {
      await web.stop();
    }
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
