import { afterEach, describe, expect, it } from "vitest";
import { emulatorOptionProblems, type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { MORNING } from "./harness.ts";

// Three keys; the first two name their seeds, the third takes one derived from the emulator's.
const TENANTS = [
  { apiKey: "key-a", seed: 11, lists: [{ name: "a-list", createdAt: "2024-02-01", size: 40 }] },
  { apiKey: "key-b", seed: 12, lists: [{ name: "b-list", createdAt: "2024-02-01", size: 30 }] },
  { apiKey: "key-c" },
];

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

function start(options: Parameters<typeof startEmulator>[0] = {}) {
  return startEmulator({ now: MORNING, frozenClock: true, rateLimit: 1000, tenants: TENANTS, ...options });
}

async function get(path: string, key?: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(path.startsWith("http") ? path : `${emulator!.url}${path}`, {
    headers: key === undefined ? {} : { "x-api-key": key },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

type Lists = { watch_lists: Array<{ list_key: string; list_name: string }> };
type Changes = { changed_items: Array<{ tax_id: string; path: string }> };

describe("an emulator with many keys", () => {
  it("gives each key its own lists, and refuses a key it does not know", async () => {
    emulator = await start();
    const a = (await get("/v2/lists", "key-a")) as { status: number; body: Lists };
    const b = (await get("/v2/lists", "key-b")) as { status: number; body: Lists };
    const c = (await get("/v2/lists", "key-c")) as { status: number; body: Lists };
    expect(a.body.watch_lists.map((l) => l.list_name)).toEqual(["a-list"]);
    expect(b.body.watch_lists.map((l) => l.list_name)).toEqual(["b-list"]);
    expect(c.body.watch_lists).toEqual([]);
    // A key cannot reach another key's list.
    const other = await get(`/v2/lists/${b.body.watch_lists[0]!.list_key}/items`, "key-a");
    expect(other.status).toBe(404);
    expect((await get("/v2/lists", "emulator-key")).status).toBe(401);
    expect((await get("/v2/lists")).status).toBe(401);
    expect(emulator.tenants().map((t) => [t.apiKey, t.tag])).toEqual([
      ["key-a", "t1"],
      ["key-b", "t2"],
      ["key-c", "t3"],
    ]);
    expect(emulator.tenant("nobody")).toBeUndefined();
  });

  it("draws each key's world from its own seed, and serves each key's change files from its world", async () => {
    emulator = await start();
    const [a, b] = [emulator.tenant("key-a")!, emulator.tenant("key-b")!];
    expect(a.sampleBusinesses({ limit: 3 })).not.toEqual(b.sampleBusinesses({ limit: 3 }));
    const changesOf = async (key: string) => {
      const lists = (await get("/v2/lists", key)).body as Lists;
      const listKey = lists.watch_lists[0]!.list_key;
      const query = "start_date=2024-02-05&end_date=2024-02-11";
      return (await get(`/v2/lists/${listKey}/changes?${query}`, key)).body as Changes;
    };
    const changesA = await changesOf("key-a");
    const changesB = await changesOf("key-b");
    expect(changesA.changed_items.length).toBeGreaterThan(0);
    expect(changesB.changed_items.length).toBeGreaterThan(0);
    expect(changesA.changed_items.every((c) => c.path.startsWith(`${a.fileBaseUrl}/`))).toBe(true);
    expect(changesB.changed_items.every((c) => c.path.startsWith(`${b.fileBaseUrl}/`))).toBe(true);
    // Files carry no key; the path says whose world answers.
    const file = await get(changesB.changed_items[0]!.path);
    expect(file.status).toBe(200);
    expect((file.body as { tax_id: string }).tax_id).toBe(changesB.changed_items[0]!.tax_id);
    const wrongWorld = changesB.changed_items[0]!.path.replace("/t2/", "/t1/");
    expect((await get(wrongWorld)).status).toBe(404);
    expect((await get(changesB.changed_items[0]!.path.replace("/t2/", "/t9/"))).status).toBe(404);
  });

  it("counts the rate limit per key, and logs the key and world of every request", async () => {
    emulator = await start({ rateLimit: 3 });
    const statuses = async (key: string) => {
      const answers = await Promise.all([1, 2, 3, 4].map(() => get("/v2/lists", key)));
      return answers.map((r) => r.status).sort();
    };
    // Each key has its own three a second: the fourth of each is refused, the others not.
    expect(await statuses("key-a")).toEqual([200, 200, 200, 429]);
    expect(await statuses("key-b")).toEqual([200, 200, 200, 429]);
    const log = emulator.requests();
    expect(log.map((r) => r.key)).toEqual([...Array(4).fill("key-a"), ...Array(4).fill("key-b")]);
    expect(log.map((r) => r.tenant)).toEqual([...Array(4).fill("t1"), ...Array(4).fill("t2")]);
    expect(log.every((r) => typeof r.at === "number" && r.keyValid)).toBe(true);
  });

  it("keeps a separate file origin's count per key", async () => {
    emulator = await start({ separateFileOrigin: true, fileRateLimit: 2, rateLimit: 1000 });
    const paths: string[] = [];
    for (const key of ["key-a", "key-b"]) {
      const lists = (await get("/v2/lists", key)).body as Lists;
      const listKey = lists.watch_lists[0]!.list_key;
      const query = "start_date=2024-02-05&end_date=2024-02-11";
      const changes = (await get(`/v2/lists/${listKey}/changes?${query}`, key)).body as Changes;
      paths.push(...changes.changed_items.slice(0, 3).map((c) => c.path));
    }
    expect(paths).toHaveLength(6);
    const answers = await Promise.all(paths.map((p) => get(p)));
    // Three files of each key against two a second per key: one refusal each.
    expect(answers.map((r) => r.status).filter((s) => s === 429)).toHaveLength(2);
    const files = emulator.requests().filter((r) => r.origin === "files");
    expect(files.map((r) => r.tenant).sort()).toEqual(["t1", "t1", "t1", "t2", "t2", "t2"]);
  });

  it("addresses one key's world through the admin routes with ?key=", async () => {
    emulator = await start();
    const lists = await get("/_emulator/lists?key=key-b");
    expect((lists.body as Array<{ list_name: string }>).map((l) => l.list_name)).toEqual(["b-list"]);
    expect((await get("/_emulator/lists?key=nobody")).status).toBe(404);
    const first = await get("/_emulator/lists");
    expect((first.body as Array<{ list_name: string }>).map((l) => l.list_name)).toEqual(["a-list"]);
  });

  it("names every bad tenant entry", () => {
    const problems = emulatorOptionProblems({
      apiKey: "x",
      tenants: [{ apiKey: "k" }, { apiKey: "k" }, { apiKey: "" }, { apiKey: "z", seed: 1.5 }],
    });
    expect(problems).toEqual([
      "give either apiKey or tenants (each tenant has its own apiKey)",
      "tenants[1].apiKey repeats an earlier tenant's key",
      "tenants[2].apiKey must be 1 to 200 visible ASCII characters",
      "tenants[3].seed must be an integer or a string",
    ]);
    expect(emulatorOptionProblems({ tenants: [] })).toEqual(["tenants must be a non-empty array"]);
  });

  it("keeps a plain emulator's one key and file base as before", async () => {
    emulator = await startEmulator({ now: MORNING, frozenClock: true, seed: 3 });
    expect(emulator.tenants().map((t) => [t.apiKey, t.tag])).toEqual([["emulator-key", ""]]);
    expect(emulator.fileBaseUrl).toBe(`${emulator.url}/files`);
    expect((await get("/v2/lists", "emulator-key")).status).toBe(200);
    expect(emulator.requests()[0]!.tenant).toBeUndefined();
  });

  it("takes the keys from a file with `regwatch emulator --tenants`", async () => {
    const result = await runCli(["emulator", "--tenants", "/nonexistent/tenants.json"]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("cannot read tenants from /nonexistent/tenants.json");
  });
});
