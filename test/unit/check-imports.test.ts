// `npm run check:imports`: no import() of a CommonJS package, whose answer differs between the
// build, Node and tsx; such a package is loaded with requirePackage (issue 46: the build sent no
// webhook). The webhook sent from the build and from a packed install: packed-install.test.ts.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findCommonJsImports, resolvesToCommonJs } from "../../scripts/check-imports.ts";
import { readSources } from "../../scripts/check-layers.ts";
import { requirePackage } from "../../src/require-package.ts";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const files = (entries: Record<string, string>) => new Map(Object.entries(entries));
const cjs = (specifier: string) => resolvesToCommonJs(specifier, SRC);

describe("the import() check", () => {
  it("knows CommonJS packages from ES module ones by Node's own resolution", () => {
    expect(cjs("standardwebhooks")).toBe(true);
    expect(cjs("@readme/openapi-parser")).toBe(false);
    expect(cjs("nodemailer")).toBe(false); // its `import` condition is an ES module
  });

  it("refuses an import() of a CommonJS package in any shape, and names the way to load it", () => {
    const problems = findCommonJsImports(
      files({
        "alerts/webhook.ts": 'x\nconst { Webhook } = await import("standardwebhooks");',
        "alerts/other.ts": 'const { default: sw } = await import("standardwebhooks");',
      }),
      cjs,
    );
    expect(problems.map((p) => [p.file, p.line])).toEqual([
      ["src/alerts/webhook.ts", 2],
      ["src/alerts/other.ts", 1],
    ]);
    expect(problems[0]!.reason).toContain('requirePackage("standardwebhooks")');
  });

  it("accepts ES module packages, built-ins, relative imports and types", () => {
    expect(
      findCommonJsImports(
        files({
          "a.ts": 'const { validate } = await import("@readme/openapi-parser");',
          "b.ts":
            'const { run } = await import("./local.ts");\nconst { readFile } = await import("node:fs/promises");',
          "c.ts": 'requirePackage<typeof import("standardwebhooks")>("standardwebhooks");',
        }),
        cjs,
      ),
    ).toEqual([]);
  });

  it("passes on regwatch's own sources", async () => {
    expect(findCommonJsImports(await readSources(SRC), cjs)).toEqual([]);
  });

  it("requirePackage answers with the package's exports by name", () => {
    const { Webhook } = requirePackage<typeof import("standardwebhooks")>("standardwebhooks");
    expect(typeof Webhook).toBe("function");
  });
});
