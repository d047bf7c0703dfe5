/**
 * Issue 48, point 16: a payment file's own text reaches the terminal shown, never obeyed. A header
 * that sets the window title (ESC ] 0 ; … BEL) and clears the screen (ESC [ 2 J) is quoted by the
 * problems `payments check` prints, escaped as every other command escapes registry text.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const HOSTILE = "Partner\u001b]0;pwned\u0007\u001b[2J";
/** Any character a terminal would act on. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const RAW_CONTROL = /[\u0007\u001b\u009b]|\r(?!\n)/;

let t: TestDatabase;
let dir: string;

async function batch(name: string, lines: string[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

beforeAll(async () => {
  t = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-payments-tty-"));
});
afterAll(async () => {
  await t?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("payments check: file text in its problems", () => {
  it("escapes the header cells it quotes when no column holds a bank account", async () => {
    const file = await batch("no-account.csv", [`${HOSTILE},Összeg`, "Kft,100"]);
    const result = await runCli(["payments", "check", file], { DATABASE_URL: t.url });
    expect(result.code, result.stderr).toBe(64);
    // The OSC sequence's own ";" is read as the delimiter: the cells are quoted as split.
    expect(result.stderr).toContain('found: "Partner\\e]0", "pwned\\u{0007}\\e[2J,Összeg"');
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(result.stdout).toBe("");
  });

  it("prints a row's width problem under a hostile header without a raw control character", async () => {
    // The OSC sequence's own ";" splits the header into four columns.
    const file = await batch("width.csv", [`bank_account;amount;${HOSTILE}`, "11773016-11111018;100;a;b;c"]);
    const result = await runCli(["payments", "check", file], { DATABASE_URL: t.url });
    expect(result.code, result.stderr).toBe(64);
    expect(result.stderr).toContain("line 2: 5 field(s), but the header names 4 columns");
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });

  it("escapes a path and a --columns header it names back", async () => {
    const file = await batch("evil\u001b[2J.csv", ["bank_account;amount", "11773016-11111018;100;x;y"]);
    const result = await runCli(["payments", "check", file, "--columns", "name=Név\u0007"], {
      DATABASE_URL: t.url,
    });
    expect(result.code, result.stderr).toBe(64);
    expect(result.stderr).toContain('--columns names "Név\\u{0007}" for name, but no column has that header');
    expect(result.stderr).toContain("evil\\e[2J.csv");
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });
});
