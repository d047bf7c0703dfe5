/**
 * What the console and the payment check load before anyone asks for a workbook or the search
 * interface: exceljs (about 26 MB once loaded) and undici are loaded on first use, so an idle
 * console and a check without --online do not carry them.
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
  it("the console's server does not load exceljs until a workbook is read or written", () => {
    expect(loadedAfter(["src/web/server.ts"])).not.toContain("exceljs");
  }, 60_000);

  it("the payment check loads neither exceljs nor undici without --xlsx and --online", () => {
    expect(loadedAfter(["src/commands/payments.ts", "src/payments/pipeline.ts"])).toEqual([]);
  }, 60_000);

  it("exceljs is there once a workbook is asked for", () => {
    const writer = pathToFileURL("src/formats/write/xlsx-writer.ts").href;
    const then = `(await import(${JSON.stringify(writer)})).loadExcel();`;
    expect(loadedAfter([], then)).toEqual(["exceljs"]);
  }, 60_000);
});
