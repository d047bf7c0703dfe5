/**
 * The package's dependencies and its one Node line: build tools are dev dependencies, what the
 * build leaves outside the bundle is a runtime (or optional) dependency, a patched dependency is
 * bundled and only as patched, young majors are pinned, CI runs the bench's smoke run, and
 * engines, the Dockerfile, CI and the lockfile's packages agree on Node.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { requirePatchedDependencies, unpatchedFiles } from "../scripts/bundled-driver.mjs";
import { nodeProblems } from "../scripts/check-node.mjs";
import { pkg, ROOT, read } from "./helpers/package-manifest.ts";

const external = () => JSON.parse(/external: (\[[^\]]*\])/.exec(read("scripts/build.mjs"))![1]!) as string[];

describe("dependencies", () => {
  it("build and source-running tools are dev dependencies only", () => {
    for (const tool of ["tsx", "esbuild", "typescript", "vitest", "@biomejs/biome", "drizzle-kit"]) {
      expect(pkg.dependencies[tool], tool).toBeUndefined();
      expect(pkg.devDependencies[tool], tool).toBeDefined();
    }
  });

  it("what the build leaves outside the bundle is a runtime or optional dependency", () => {
    for (const name of external()) {
      const declared = name.endsWith("/*")
        ? Object.keys(pkg.optionalDependencies).some((d) => d.startsWith(name.slice(0, -1)))
        : name in pkg.dependencies;
      expect(declared, name).toBe(true);
    }
  });

  it("a package patched in patches/ is bundled, so that its fix reaches every install", () => {
    // patch-package names a patch `name+version.patch`, a scoped one `@scope+name+version.patch`.
    const patched = readdirSync(path.join(ROOT, "patches")).map((f) =>
      f.replace(/\+[^+]+\.patch$/, "").replace("+", "/"),
    );
    expect(patched).toContain("postgres");
    for (const name of patched) {
      const outside = external().some(
        (e) => e === name || (e.endsWith("/*") && name.startsWith(e.slice(0, -1))),
      );
      expect(outside, name).toBe(false);
    }
  });

  it("the build bundles a patched package only as patched, and says how to patch it", () => {
    expect(unpatchedFiles(ROOT)).toEqual([]);
    // The driver's files without one line of the fix, beside the checkout's patches.
    const root = mkdtempSync(path.join(tmpdir(), "regwatch-unpatched-"));
    try {
      cpSync(path.join(ROOT, "patches"), path.join(root, "patches"), { recursive: true });
      for (const file of ["src/connection.js", "cjs/src/connection.js"]) {
        const patched = read(`node_modules/postgres/${file}`);
        mkdirSync(path.dirname(path.join(root, "node_modules/postgres", file)), { recursive: true });
        writeFileSync(
          path.join(root, "node_modules/postgres", file),
          patched.replace(/.*startupCloses = 0\n/, ""),
        );
      }
      expect(unpatchedFiles(root)).toEqual([
        "node_modules/postgres/cjs/src/connection.js (patches/postgres+3.4.9.patch)",
        "node_modules/postgres/src/connection.js (patches/postgres+3.4.9.patch)",
      ]);
      expect(() => requirePatchedDependencies(root)).toThrow(/without its fix: .*`npx patch-package`/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("young majors are pinned to a minor (~) or exactly", () => {
    for (const name of ["typescript", "nodemailer", "csv-parse"]) {
      const spec = pkg.dependencies[name] ?? pkg.devDependencies[name];
      expect(spec, name).toMatch(/^(~|)\d+\.\d+\.\d+$/);
    }
  });

  it("npm run demo builds before it runs the bin", () => {
    expect(pkg.scripts.demo).toBe("node scripts/build.mjs && node bin/regwatch.js demo");
  });
});

describe("CI", () => {
  it("runs the benchmark's smoke run after the tests, so a bench that no longer runs fails it", () => {
    const commands = read(".ci/run")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
    const tests = commands.findIndex((line) => /^npm test( |$)/.test(line));
    expect(tests).toBeGreaterThanOrEqual(0);
    expect(commands.indexOf("npm run bench -- --smoke")).toBeGreaterThan(tests);
  });
});

describe("one Node line", () => {
  it("this Node, engines and the Dockerfile agree (the check .ci/run makes)", () => {
    expect(nodeProblems(process.version, pkg.engines.node, read("Dockerfile"))).toEqual([]);
    expect(read(".ci/run")).toContain("node scripts/check-node.mjs");
  });

  it("the check names each disagreement", () => {
    const dockerfile = "FROM node:22.20.0-bookworm-slim AS build\n";
    expect(nodeProblems("v20.20.2", ">=20.19", dockerfile)).toEqual([
      "Node v20.20.2 is not of the Dockerfile's line (node:22.20.0): test on the Node the image runs",
    ]);
    expect(nodeProblems("v20.18.0", ">=20.19", "FROM node:20.18.0-slim\n")).toEqual([
      'Node v20.18.0 does not satisfy package.json engines.node ">=20.19"',
      `the Dockerfile's node:20.18.0 does not satisfy engines.node ">=20.19"`,
    ]);
    expect(nodeProblems("v20.20.2", "^20", dockerfile)[0]).toMatch(/reads only ">=X.Y.Z"/);
  });
});

describe("dependencies run on the Node the project declares", () => {
  it("every package in the lockfile accepts the oldest Node of engines (no EBADENGINE at install)", () => {
    const oldest = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(pkg.engines.node)?.[1] ?? "";
    expect(oldest).not.toBe("");
    const lock = JSON.parse(read("package-lock.json")) as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    const refused = Object.entries(lock.packages)
      .filter(([, p]) => !Array.isArray(p.engines) && typeof p.engines?.node === "string")
      .filter(([, p]) => !satisfies(oldest, (p.engines as { node: string }).node))
      .map(([where, p]) => `${where} (${(p.engines as { node: string }).node})`);
    expect(refused).toEqual([]);
  });

  it("reads the range forms the lockfile uses", () => {
    expect(satisfies("20.19.0", ">=22")).toBe(false);
    expect(satisfies("20.19.0", "^20.19.0 || >=22.12.0")).toBe(true);
    expect(satisfies("20.19.0", "^20.0.0 || ^22.0.0 || >=24.0.0")).toBe(true);
    expect(satisfies("20.19.0", ">=20.18.1")).toBe(true);
    expect(satisfies("20.19.0", "18 || 20 || >=22")).toBe(true);
    expect(satisfies("20.19.0", ">=16 || 14 >=14.17")).toBe(true);
    expect(satisfies("20.19.0", "^16 || ^18")).toBe(false);
    expect(satisfies("20.19.0", "6.* || 8.* || >= 10.*")).toBe(true);
  });
});

/**
 * Whether `version` satisfies an npm engines range: alternatives joined by `||`, each a list of
 * comparators (`>=`, `>`, `<`, `<=`, `^`, `~`, a bare or wildcard version). Enough for engines.
 */
function satisfies(version: string, range: string): boolean {
  const v = parts(version);
  return range.split("||").some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, "$1")
      .split(/\s+/)
      .filter((c) => c !== "")
      .every((comparator) => {
        const [, op = "", raw = ""] = /^(>=|<=|>|<|\^|~|=)?(.*)$/.exec(comparator) ?? [];
        if (raw === "*" || raw === "x") return true;
        const given = raw.split(".").filter((p) => p !== "*" && p !== "x" && p !== "");
        const w = parts(raw);
        const cmp = compare(v, w);
        switch (op) {
          case ">=":
            return cmp >= 0;
          case ">":
            return cmp > 0;
          case "<":
            return cmp < 0;
          case "<=":
            return cmp <= 0;
          case "^":
            return cmp >= 0 && v[0] === w[0];
          case "~":
            return cmp >= 0 && v[0] === w[0] && v[1] === w[1];
          default:
            // A bare version matches the parts it gives: "20" is any 20.x.y.
            return given.every((p, i) => v[i] === Number(p));
        }
      }),
  );
}

function parts(version: string): number[] {
  const found = version.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : 0));
  while (found.length < 3) found.push(0);
  return found.slice(0, 3);
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
