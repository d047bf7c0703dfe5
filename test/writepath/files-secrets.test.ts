import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  changesAnswer,
  HOSTILE_KEY,
  type HostileRegistry,
  hostileEnv,
  item,
  json,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { schemaText } from "../helpers/schema-text.ts";

const GOOD = "wl_good";
const ECHO = "wl_echo";

describe("change files one by one, and the key never stored or printed", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;
  const deep = `${"[".repeat(8000)}${"]".repeat(8000)}`;

  beforeAll(async () => {
    t = await createTestDatabase();
    registry = await startHostileRegistry({
      lists: [
        { list_key: GOOD, list_name: "good", created_at: "2024-03-08" },
        { list_key: ECHO, list_name: "echo", created_at: "2024-03-08" },
      ],
      changes: (q) => {
        if (q.listKey === ECHO) return json({ error: `key ${q.apiKey} is not valid for this list` }, 404);
        const base = registry.url;
        return changesAnswer(q.from, q.to, [
          item(base, "11111111", "2024-03-08"),
          item(base, "22222222", "2024-03-08", { path: `${base}/files/malformed.json` }),
          item(base, "33333333", "2024-03-08", { path: `${base}/files/deep.json` }),
          item(base, "44444444", "2024-03-08", { path: `${base}/files/echo.json` }),
          item(base, "55555555", "2024-03-08", { path: "http://127.0.0.2:9/files/elsewhere.json" }),
          item(base, "66666666", "2024-03-08"),
        ]);
      },
      file: (path, request) => {
        const key = String(request.headers["x-api-key"] ?? "");
        if (path === "/files/malformed.json")
          return { headers: { "content-type": "application/json" }, body: '{"a": [1, 2' };
        if (path === "/files/deep.json")
          return { headers: { "content-type": "application/json" }, body: deep };
        // Not 403: a file origin's 401/403 stops the whole run as a refused key (issue 37).
        if (path === "/files/echo.json")
          return {
            status: 400,
            headers: { "content-type": "text/html" },
            body: `<h1>Forbidden</h1> key=${key}`,
          };
        return { headers: { "content-type": "application/json" }, body: JSON.stringify({ path, ok: true }) };
      },
    });
  });
  afterAll(async () => {
    await t?.drop();
    await registry?.close();
  });

  const env = () => ({ ...hostileEnv(registry, { REGWATCH_START_DATE: "2024-03-08" }), DATABASE_URL: t.url });

  it("one bad file fails alone with its reason; the others are stored; refused ones come back when allowed", async () => {
    const sync = await runCli(["sync", "--json"], { ...env(), TZ: "UTC" });
    expect(sync.stderr).not.toMatch(/\n\s+at /);
    expect(sync.code).toBe(3);
    const files = await t.db.sql<{ path: string; status: string; last_error: string | null }[]>`
      select path, status, last_error from regwatch.change_files order by path`;
    const byName = Object.fromEntries(files.map((f) => [f.path.split("/").at(-1)!, f]));
    expect(byName["11111111-2024-03-08.json"]?.status).toBe("fetched");
    expect(byName["66666666-2024-03-08.json"]?.status).toBe("fetched");
    expect(byName["malformed.json"]?.status).toBe("failed");
    expect(byName["malformed.json"]?.last_error).toMatch(/database refused the body/);
    expect(["fetched", "failed"]).toContain(byName["deep.json"]?.status);
    expect(byName["echo.json"]?.status).toBe("failed");
    expect(byName["elsewhere.json"]?.status).toBe("refused");

    // The origin is allowed now: the refused file is asked again (it fails to connect, but is tried).
    const widened = await runCli(["sync", "--json"], {
      ...env(),
      REGWATCH_FILE_ORIGINS: `${registry.url},http://127.0.0.2:9`,
    });
    expect(widened.stderr).not.toMatch(/\n\s+at /);
    const [elsewhere] = await t.db.sql<{ status: string }[]>`
      select status from regwatch.change_files where path like '%elsewhere.json'`;
    expect(elsewhere!.status).toBe("failed");
  }, 180_000);

  it("the key echoed in every error body is in no table and no output", async () => {
    const sync = await runCli(["sync", "--json"], env());
    const text = await runCli(["sync"], env());
    const status = await runCli(["status", "--json"], env());
    const statusText = await runCli(["status"], env());
    for (const out of [sync, text, status, statusText]) {
      expect(out.stdout).not.toContain(HOSTILE_KEY);
      expect(out.stderr).not.toContain(HOSTILE_KEY);
    }
    // The echo really happened and was scrubbed, not avoided.
    expect(sync.stdout).toMatch(/\[redacted\]/);
    const stored = await schemaText(t.db.sql);
    expect(stored).toMatch(/^change_files: /m);
    expect(stored).not.toContain(HOSTILE_KEY);
    expect(stored).toContain("[redacted]");
  }, 180_000);
});
