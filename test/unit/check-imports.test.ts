// `npm run check:imports`: an import() of a CommonJS package is read through `default` only, the
// one shape the build and the sources answer alike (issue 46: the build sent no webhook).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findNamedCommonJsImports, resolvesToCommonJs } from "../../scripts/check-imports.ts";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const files = (entries: Record<string, string>) => new Map(Object.entries(entries));
const cjs = (specifier: string) => resolvesToCommonJs(specifier, SRC);

describe("the import() check", () => {
  it("knows CommonJS packages from ES module ones by Node's own resolution", () => {
    expect(cjs("standardwebhooks")).toBe(true);
    expect(cjs("@readme/openapi-parser")).toBe(false);
    expect(cjs("node:fs")).toBe(false);
  });

  it("refuses a CommonJS package's exports read by name, and says how to read it", () => {
    const problems = findNamedCommonJsImports(
      files({
        "alerts/webhook.ts": 'x\nconst { Webhook } = await import("standardwebhooks");',
        "alerts/other.ts": 'const sw = await import("standardwebhooks");\nnew sw.Webhook("k");',
      }),
      cjs,
    );
    expect(problems.map((p) => [p.file, p.line])).toEqual([
      ["src/alerts/webhook.ts", 2],
      ["src/alerts/other.ts", 1],
    ]);
    expect(problems[0]!.reason).toContain('const { default: name } = await import("standardwebhooks")');
  });

  it("accepts default for CommonJS, names for ES modules, and relative imports", () => {
    expect(
      findNamedCommonJsImports(
        files({
          "a.ts": 'const { default: standardWebhooks } = await import("standardwebhooks");',
          "b.ts": 'const W = (await import("standardwebhooks")).default.Webhook;',
          "c.ts": 'const { validate } = await import("@readme/openapi-parser");',
          "d.ts":
            'const { run } = await import("./local.ts");\nconst { readFile } = await import("node:fs/promises");',
        }),
        cjs,
      ),
    ).toEqual([]);
  });

  it("passes on regwatch's own sources", async () => {
    const { readSources } = await import("../../scripts/check-layers.ts");
    expect(findNamedCommonJsImports(await readSources(SRC), cjs)).toEqual([]);
  });
});
