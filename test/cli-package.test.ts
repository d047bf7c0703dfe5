/**
 * The package around the commands: the overview lists each command with its own description
 * without loading it, `--version`, `.env` in the working directory (the environment wins),
 * `db url` masking, and a usage error that leaves no run row behind.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandLogLevel } from "../src/commands/context.ts";
import { maskPassword } from "../src/commands/db.ts";
import { COMMANDS } from "../src/commands/table.ts";
import { addDays, localDateTime } from "../src/dates.ts";
import { loadDotEnv } from "../src/dotenv.ts";
import { BIN, runCli, runProcess } from "./helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { type EmulatorProcess, startEmulatorProcess } from "./helpers/emulator-process.ts";

describe("command table and version", () => {
  it("each summary is the description its command registers", async () => {
    for (const entry of COMMANDS) {
      const program = new Command();
      (await entry.load())(program);
      const registered = program.commands.find((c) => c.name() === entry.name);
      expect(registered?.description(), entry.name).toBe(entry.summary);
    }
  });

  it("--version prints the version of package.json", async () => {
    const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    const result = await runCli(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });

  it("a command's own help is complete although only that command is loaded", async () => {
    const result = await runCli(["backfill", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("--from <date>");
    const viaHelp = await runCli(["help", "backfill"]);
    expect(viaHelp.stdout).toContain("--from <date>");
  });
});

describe(".env and db url", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "regwatch-env-"));
    await writeFile(
      path.join(dir, ".env"),
      "# copied from .env.example\nDATABASE_URL=postgres://app:from-dotenv@db.example:5432/app\nREGWATCH_TZ=Europe/Budapest\n",
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads .env of the working directory, password masked unless asked", async () => {
    const masked = await runProcess(process.execPath, [BIN, "db", "url"], {}, 30_000, dir);
    expect(masked.code).toBe(0);
    expect(masked.stdout.trim()).toBe("postgres://app:****@db.example:5432/app");
    const shown = await runProcess(process.execPath, [BIN, "db", "url", "--show-password"], {}, 30_000, dir);
    expect(shown.stdout.trim()).toBe("postgres://app:from-dotenv@db.example:5432/app");
  });

  it("the environment wins over .env", async () => {
    const result = await runProcess(
      process.execPath,
      [BIN, "db", "url"],
      { DATABASE_URL: "postgres://env:pw@env.example/x" },
      30_000,
      dir,
    );
    expect(result.stdout.trim()).toBe("postgres://env:****@env.example/x");
  });

  it("loadDotEnv sets only what is unset", () => {
    const env: NodeJS.ProcessEnv = { REGWATCH_TZ: "UTC" };
    expect(loadDotEnv(dir, env)).toEqual(["DATABASE_URL"]);
    expect(env.REGWATCH_TZ).toBe("UTC");
    expect(loadDotEnv(path.join(dir, "nowhere"), env)).toEqual([]);
  });

  it("on a terminal only warnings are logged unless REGWATCH_LOG_LEVEL says otherwise", () => {
    expect(commandLogLevel({ logLevel: "info" }, {}, true)).toBe("warn");
    expect(commandLogLevel({ logLevel: "debug" }, { REGWATCH_LOG_LEVEL: "debug" }, true)).toBe("debug");
    expect(commandLogLevel({ logLevel: "info" }, {}, false)).toBe("info");
  });

  it("maskPassword leaves a URL without password alone", () => {
    expect(maskPassword("postgres://u@h/db")).toBe("postgres://u@h/db");
  });
});

describe("a usage error is not a run", () => {
  let emulator: EmulatorProcess;
  let t: TestDatabase;
  beforeAll(async () => {
    emulator = await startEmulatorProcess(["--seed", "5", "--businesses", "200"]);
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.stop();
  });

  it("sync --list with an unknown list exits 64 and writes no run row", async () => {
    const before = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.runs`;
    const result = await runCli(["sync", "--list", "no-such-list"], {
      DATABASE_URL: t.url,
      REGWATCH_WATCH_URL: emulator.url,
      REGWATCH_API_KEY: emulator.apiKey,
    });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("no-such-list");
    const after = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.runs`;
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it("backfill with --to before --from exits 64 and writes no run row", async () => {
    const result = await runCli(["backfill", "--from", "2024-03-10", "--to", "2024-03-01"], {
      DATABASE_URL: t.url,
      REGWATCH_WATCH_URL: emulator.url,
      REGWATCH_API_KEY: emulator.apiKey,
    });
    expect(result.code).toBe(64);
    const [row] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.runs`;
    expect(row?.n).toBe(0);
  });

  it("a backfill from before a list existed says when the list was created", async () => {
    const records = await emulator.admin<{ tax_id: string; type: string }[]>("businesses?limit=40");
    const ids = records.filter((r) => r.type !== "budget_orgs").map((r) => r.tax_id);
    const today = localDateTime(new Date(), "Europe/Budapest").date;
    const createdAt = addDays(today, -10);
    await emulator.admin("lists", { name: "young", createdAt, taxIds: ids.slice(0, 3) });
    const result = await runCli(["backfill", "--from", addDays(today, -20)], {
      DATABASE_URL: t.url,
      REGWATCH_WATCH_URL: emulator.url,
      REGWATCH_API_KEY: emulator.apiKey,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`note: list young \\(wl_\\w+\\) was created on ${createdAt}`));
  });
});
