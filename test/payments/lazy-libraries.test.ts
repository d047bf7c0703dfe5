/**
 * What the console and the payment check load before anyone asks for the search interface: undici
 * is loaded on first use, so an idle console and a check without --online do not carry it; and
 * exceljs (about 26 MB once loaded), which workbooks were once read and written with, is loaded
 * by nothing, a workbook read or written included.
 */
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/** Which of exceljs and undici Node has loaded after importing `modules` (in a process of its own). */
function loadedAfter(modules: string[], then = ""): string[] {
  const imports = modules.map((m) => `await import(${JSON.stringify(pathToFileURL(m).href)});`).join("\n");
  const probe = `${imports}
${then}
const { createRequire } = await import("node:module");
const loaded = Object.keys(createRequire(import.meta.url).cache);
process.stdout.write(JSON.stringify([...new Set(loaded.flatMap((f) => /node_modules\\/(exceljs|undici)\\//.exec(f)?.[1] ?? []))]));`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", probe], {
    encoding: "utf8",
  });
  return JSON.parse(out) as string[];
}

describe("libraries loaded on first use", () => {
  it("the console's server does not load exceljs", () => {
    expect(loadedAfter(["src/web/server.ts"])).not.toContain("exceljs");
  }, 60_000);

  it("the payment check loads neither exceljs nor undici without --xlsx and --online", () => {
    expect(loadedAfter(["src/commands/payments.ts", "src/payments/pipeline.ts"])).toEqual([]);
  }, 60_000);

  it("a workbook is written and read back without exceljs", () => {
    const writer = JSON.stringify(pathToFileURL("src/formats/write/xlsx-writer.ts").href);
    const reader = JSON.stringify(pathToFileURL("src/formats/read/xlsx.ts").href);
    const then = `const { XlsxWriter } = await import(${writer});
const { xlsxToCsv } = await import(${reader});
const { mkdtempSync } = await import("node:fs");
const dir = mkdtempSync((await import("node:os")).tmpdir() + "/regwatch-lazy-");
const book = new XlsxWriter(dir + "/a.xlsx");
book.sheet("a", [{ header: "n", type: "number" }]).row([1]);
await book.end();
await xlsxToCsv(dir + "/a.xlsx", dir + "/a.csv");
(await import("node:fs")).rmSync(dir, { recursive: true });`;
    expect(loadedAfter([], then)).toEqual([]);
  }, 60_000);
});
