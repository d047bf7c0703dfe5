/**
 * The sign-in page's first-admin hint names the command as it is run where the console runs
 * (issue 49, point 12): `npx regwatch users add …` from a checkout (the package's folder holds
 * `.git`, and `regwatch` is not on the PATH there), plain `regwatch users add …` from an installed
 * copy (no `.git`: npm installs none, nor does the image). Both from the built console, started as
 * `regwatch web`: the checkout's own bin, and a copy of the package's files elsewhere.
 */
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebProcess } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let t: TestDatabase;
let installed: string;

beforeAll(async () => {
  t = await createTestDatabase();
  installed = await mkdtemp(path.join(tmpdir(), "regwatch-installed-"));
  for (const part of ["package.json", "bin", "dist", "migrations"]) {
    await cp(path.join(ROOT, part), path.join(installed, part), { recursive: true });
  }
  await symlink(path.join(ROOT, "node_modules"), path.join(installed, "node_modules"));
});
afterAll(async () => {
  await t?.drop();
  if (installed) await rm(installed, { recursive: true, force: true });
});

async function hint(bin: string, language: string): Promise<string> {
  const web = await startWebProcess(bin, { DATABASE_URL: t.url });
  try {
    const html = await (await fetch(`${web.url}/login`, { headers: { "accept-language": language } })).text();
    return /<code>([^<]*)<\/code>/.exec(html)?.[1] ?? "";
  } finally {
    await web.stop();
  }
}

describe("the first-admin hint", () => {
  it("says npx regwatch in a checkout, in both languages", async () => {
    const bin = path.join(ROOT, "bin/regwatch.js");
    expect(await hint(bin, "en")).toBe("npx regwatch users add NAME --role admin --password-stdin");
    expect(await hint(bin, "hu-HU")).toBe("npx regwatch users add NAME --role admin --password-stdin");
  });

  it("says regwatch where the package is installed", async () => {
    expect(await hint(path.join(installed, "bin/regwatch.js"), "en")).toBe(
      "regwatch users add NAME --role admin --password-stdin",
    );
  });
});
