/**
 * What the bundled build (`npm run build`) loads, for start time and memory (issue 38): Node's
 * built-in modules reach it through require (an ES import of one builds its whole namespace, and
 * node:fs's loads fs/promises and the stream classes), a command's `--help` never loads
 * child_process (commander needs it only for executable subcommands), and a sync or backfill
 * loads the code that sends alert messages (nodemailer, the webhook signer, the message
 * catalogues) only when a pass has something to send. What a sync or backfill loads is text that
 * V8 keeps at one byte a character (no character beyond Latin-1, even in a library's comment),
 * without iconv-lite's double-byte tables.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runBuiltRecordingLoads } from "./helpers/module-loads.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = path.join(ROOT, "dist");

/** The files of dist/ that `file` imports statically, itself included (not its import() calls). */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/^import\s+(?:[^"']*?from\s+)?["'](\.[^"']+)["']/gm))
    staticClosure(path.resolve(path.dirname(file), m[1]!), seen);
  return seen;
}

function bundledFiles(): string[] {
  const chunks = readdirSync(path.join(DIST, "chunks")).map((f) => path.join(DIST, "chunks", f));
  return [
    path.join(DIST, "cli.js"),
    path.join(DIST, "cli-status.cjs"),
    ...chunks.filter((f) => f.endsWith(".js")),
  ];
}

describe("the build", () => {
  it("imports no built-in module with an ES import but node:module (its require)", () => {
    const imports = bundledFiles().flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/^import\s+[^;]*?from\s+"(node:[^"]+)"/gm)].map((m) => m[1]),
    );
    expect(imports.length).toBeGreaterThan(0);
    expect(new Set(imports)).toEqual(new Set(["node:module"]));
  });

  it("answers a command's --help without loading child_process", async () => {
    const run = await runBuiltRecordingLoads(["sync", "--help"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Usage: regwatch sync");
    expect(run.loaded).toContain("NativeModule internal/modules/esm/loader");
    expect(run.loaded).not.toContain("NativeModule child_process");
    expect(run.loaded).not.toContain("NativeModule dgram");
  });

  it("loads no alert-sending code with sync and backfill", () => {
    const sync = readdirSync(path.join(DIST, "chunks")).find((f) => /^sync-[A-Z0-9]+\.js$/.test(f));
    expect(sync).toBeDefined();
    const text = [...staticClosure(path.join(DIST, "chunks", sync!))]
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    // esbuild names each bundled source in a comment: the sync's own files are there, these are not.
    expect(text).toMatch(/^\/\/ src\/jobs\/sync-job\.ts$/m);
    expect(text).not.toMatch(/node_modules\/nodemailer\//);
    expect(text).not.toMatch(/node_modules\/standardwebhooks\//);
    expect(text).not.toMatch(/node_modules\/intl-messageformat\//);
    expect(text).not.toMatch(/^\/\/ src\/alerts\/message\.ts$/m);
  });

  it("keeps the text a sync or backfill loads at one byte a character, without iconv-lite's tables", () => {
    const sync = readdirSync(path.join(DIST, "chunks")).find((f) => /^sync-[A-Z0-9]+\.js$/.test(f));
    const files = [...staticClosure(path.join(DIST, "chunks", sync!))];
    const text = files.map((f) => readFileSync(f, "utf8")).join("\n");
    expect(text).toMatch(/node_modules\/undici\//);
    expect(text).toMatch(/node_modules\/iconv-lite\//);
    // A character above U+00FF anywhere makes V8 keep the whole text at two bytes a character.
    const wide = files.filter((f) => [...readFileSync(f, "utf8")].some((c) => c.charCodeAt(0) > 0xff));
    expect(wide.map((f) => path.basename(f))).toEqual([]);
    expect(text).not.toMatch(/^\/\/ [^\n]*iconv-lite\/encodings\/tables\//m);
    expect(text).toContain('require("iconv-lite/encodings/tables/cp936.json")');
  });
});
