/**
 * The built console runs at most two payment checks at once: a third upload is answered 503 with
 * Retry-After before its file is read, and records nothing; a slot held by an upload whose
 * connection is cut off is given back, so the console checks again afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../helpers/cli.ts";
import { createUser, type SignedIn, signIn, startWebProcess } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { waitUntil } from "../helpers/wait.ts";

const ACCOUNT = "11773016-11111018-00000000";
const BOUNDARY = "----regwatchslots";
/** A batch id no batch has: "Check again" on it takes a slot, then answers 404 (or 503 when none is free). */
const NO_BATCH = "00000000-0000-4000-8000-000000000000";

let t: TestDatabase;
let web: Awaited<ReturnType<typeof startWebProcess>>;
let vera: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  await createUser(t.db, "vera", "reviewer");
  web = await startWebProcess(BIN, { DATABASE_URL: t.url });
  vera = await signIn(web.url, "vera");
});
afterAll(async () => {
  await web?.stop();
  await t?.drop();
});

function upload(csv: string): Promise<Response> {
  const form = new FormData();
  form.append("_csrf", vera.csrf);
  form.append("file", new Blob([csv], { type: "text/csv" }), "batch.csv");
  return fetch(`${web.url}/payments`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: vera.cookie },
    body: form,
  });
}

/**
 * An upload that sends the form's first part and part of the file, then nothing more until it
 * is cut off (`abort`): a check holding its slot while its file arrives. `settled` tells whether
 * it has been answered (or cut off) already.
 */
function stalledUpload(): { abort(): void; answered: Promise<unknown>; settled(): boolean } {
  const controller = new AbortController();
  const head =
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="_csrf"\r\n\r\n${vera.csrf}\r\n` +
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="slow.csv"\r\n` +
    `content-type: text/csv\r\n\r\nbank_account;amount\r\n${ACCOUNT};100\r\n`;
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      stream.enqueue(new TextEncoder().encode(head));
    },
  });
  const answered = fetch(`${web.url}/payments`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: vera.cookie, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
    duplex: "half",
    signal: controller.signal,
  } as RequestInit).catch((error: unknown) => error);
  let settled = false;
  void answered.then(() => {
    settled = true;
  });
  return { abort: () => controller.abort(), answered, settled: () => settled };
}

/** "Check again" on a batch that does not exist: 404 with a free slot, 503 without. */
async function probe(): Promise<number> {
  const body = new URLSearchParams({ _csrf: vera.csrf });
  const answer = await fetch(`${web.url}/payments/${NO_BATCH}/recheck`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: vera.cookie, "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  await answer.arrayBuffer();
  return answer.status;
}

const batches = async () =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.payment_batches`)[0]!.n;

describe("checks at once in one console", () => {
  it("a third check gets 503 with Retry-After; slots held by cut-off uploads come back", async () => {
    expect(await probe()).toBe(404);
    let stalled = [stalledUpload(), stalledUpload()];
    // Both stalled uploads hold their slot once the probe finds none free. A probe holds a slot
    // too while it runs: a stalled upload that arrived then was refused with 503 (answered), and
    // another takes its place.
    await waitUntil(
      async () => {
        stalled = stalled.map((upload) => (upload.settled() ? stalledUpload() : upload));
        return (await probe()) === 503;
      },
      { what: "both slots taken", process: web.child, everyMs: 50 },
    );
    const [first, second] = stalled as [ReturnType<typeof stalledUpload>, ReturnType<typeof stalledUpload>];

    const refused = await upload(`bank_account;amount\n${ACCOUNT};100\n`);
    const page = await refused.text();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("10");
    expect(page).toContain("at most 2 payment batches at once");
    expect(await batches()).toBe(0);

    first.abort();
    second.abort();
    await Promise.all([first.answered, second.answered]);
    // The console notices the cut connections and gives both slots back.
    await waitUntil(async () => (await probe()) === 404, {
      what: "slots given back",
      process: web.child,
      everyMs: 50,
    });
    const [a, b] = await Promise.all([
      upload(`bank_account;amount\n${ACCOUNT};100\n`),
      upload(`bank_account;amount\n${ACCOUNT};200\n`),
    ]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(await batches()).toBe(2);
    expect(await probe()).toBe(404);
  });
});
