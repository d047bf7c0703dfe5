/**
 * Issue 37, point 16: registry text reaching a terminal is shown, never obeyed. A hostile registry
 * names its list with ESC [ 2 J (clear the screen) and BEL, and serves change values that start a
 * formula or carry ESC, BEL and CR. The backfill summary's notes and `status` show the name
 * escaped; `changes --csv` neutralises formula cells as the console's /changes.csv does, keeps a
 * pipeline's text exact otherwise, and escapes control characters when it writes to a terminal
 * (run under `script`, a real pseudo-terminal).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli, runProcess } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  type HostileRegistry,
  hostileEnv,
  json,
  oneDayOfFiles,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { taxIdOf } from "../values/helpers.ts";

const DAY = "2024-03-05";
const EVIL_NAME = "evil\u001b[2J\u0007list";
const FORMULA = '=HYPERLINK("http://x","y")';
const CONTROLS = "\u001b[2J\u0007\rX";
const TAX = { formula: taxIdOf(4, 1), controls: taxIdOf(4, 2) };
const VALUES: Record<string, string> = { formula: FORMULA, controls: CONTROLS };

/** Any character a terminal would act on, a CR ending a line (as a pty writes it) aside. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const RAW_CONTROL = /[\u0007\u001b\u009b]|\r(?!\n)/;

describe("registry text on a terminal", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;
  const env = () => ({ DATABASE_URL: t.url, ...hostileEnv(registry) });

  beforeAll(async () => {
    t = await createTestDatabase();
    registry = await startHostileRegistry({
      lists: [{ list_key: "wl_evil", list_name: EVIL_NAME, created_at: "2024-03-01" }],
      changes: oneDayOfFiles(DAY, TAX, () => registry.url),
      file: (path) => {
        const name = /\/files\/(\w+)\.json$/.exec(path)![1] as keyof typeof TAX;
        return json({
          tax_id: TAX[name],
          changes: [{ heading: "long_name", old_value: "Old Kft.", new_value: VALUES[name] }],
        });
      },
    });
  });
  afterAll(async () => {
    await t?.drop();
    await registry?.close();
  });

  it("escapes a list's name in the backfill summary's note", async () => {
    const backfill = await runCli(["backfill", "--from", "2024-02-20", "--to", "2024-03-09"], env(), 120_000);
    expect(backfill.code).toBe(0);
    expect(backfill.stdout).toContain(
      "note: list evil\\e[2J\\u{0007}list (wl_evil) was created on 2024-03-01",
    );
    expect(backfill.stdout).not.toMatch(RAW_CONTROL);
    expect(backfill.stderr).not.toMatch(RAW_CONTROL);
  }, 180_000);

  it("escapes it in status", async () => {
    const status = await runCli(["status"], env());
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("evil\\e[2J\\u{0007}list");
    expect(status.stdout).not.toMatch(RAW_CONTROL);
  });

  it("neutralises formula cells in changes --csv and keeps other text exact for a pipeline", async () => {
    const csv = await runCli(["changes", "--csv", "--since", "2024-03-01"], env());
    expect(csv.code).toBe(0);
    const lines = csv.stdout.split("\n");
    expect(lines[0]).toBe(
      "change_date,tax_id,business_name,list_names,heading,old_value,new_value,order_ambiguous,old_value_known,values_read",
    );
    const formula = lines.find((l) => l.includes(TAX.formula))!;
    expect(formula).toContain(`,"'=HYPERLINK(""http://x"",""y"")",false`);
    expect(formula).not.toMatch(/,=HYPERLINK/);
    // Piped, a cell is the registry's text to the byte (quoted for its CR).
    expect(csv.stdout).toContain(`,"${CONTROLS}",false`);
  });

  it("escapes control characters when changes --csv writes to a terminal", async () => {
    const command = [process.execPath, BIN, "changes", "--csv", "--since", "2024-03-01"]
      .map((part) => `'${part}'`)
      .join(" ");
    const tty = await runProcess(
      "script",
      ["-qec", command, "/dev/null"],
      {
        ...env(),
        REGWATCH_LOG_LEVEL: "warn",
      },
      60_000,
    );
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain(TAX.controls);
    expect(tty.stdout).toContain(",\\e[2J\\u{0007}\\rX,false");
    expect(tty.stdout).toContain("evil\\e[2J\\u{0007}list");
    expect(tty.stdout).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(tty.stdout).not.toMatch(RAW_CONTROL);
  });
});
