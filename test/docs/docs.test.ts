/**
 * The documents stay true to the code (issue 47): docs/configuration.md is what the configuration's
 * schema generates, and every relative link of the README and docs/ reaches its file and heading.
 * `npm run check` runs the same two checks (`check:docs`).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { brokenLinks } from "../../scripts/check-doc-links.ts";
import { CONFIG_DOC, renderConfigDoc } from "../../scripts/config-docs.ts";
import { ENV } from "../../src/config-schema.ts";
import { childBaseEnv } from "../helpers/child-env.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("docs/configuration.md", () => {
  it("is what the schema generates (run npm run docs:config when this fails)", () => {
    expect(readFileSync(CONFIG_DOC, "utf8")).toBe(renderConfigDoc());
  });

  it("names every variable regwatch reads, once", () => {
    const text = readFileSync(CONFIG_DOC, "utf8");
    for (const name of Object.keys(ENV))
      expect(text.match(new RegExp(`^\\| \`${name}\` \\|`, "gm")), name).toHaveLength(1);
  });

  it("passes the check npm run check runs (scripts/config-docs.ts --check)", () => {
    const run = spawnSync(process.execPath, ["bin/run-ts.js", "scripts/config-docs.ts", "--check"], {
      cwd: ROOT,
      env: childBaseEnv(),
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
  });
});

describe("links of the README and docs/", () => {
  it("each reach an existing file and, with #anchor, one of its headings", () => {
    expect(brokenLinks()).toEqual([]);
  });
});
