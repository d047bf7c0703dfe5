/**
 * regwatch installed as a user installs it: `npm pack` of this checkout, the tarball installed into
 * an empty folder with its runtime dependencies only, from npm's cache (`npm ci` filled it). The
 * checkout's dist/ is the one the product tests' global setup built; packing runs no script, so it
 * neither builds again nor touches node_modules (which `prepare` would patch).
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "./cli.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface PackedInstall {
  /** The folder the package was installed into (its node_modules holds regwatch and its dependencies). */
  dir: string;
  /** The installed package itself: node_modules/regwatch. */
  root: string;
  /** The `regwatch` command npm put in node_modules/.bin, started as a shell starts it. */
  bin: string;
  remove(): Promise<void>;
}

/**
 * Packs and installs; throws with npm's output when either fails. `--omit=optional` leaves out the
 * embedded Postgres binaries (60 MB, unused beside a DATABASE_URL, as in the image).
 */
export async function installPacked(): Promise<PackedInstall> {
  const dir = await mkdtemp(path.join(tmpdir(), "regwatch-packed-"));
  const npm = async (args: string[], cwd: string) => {
    const run = await runProcess("npm", [...args, "--no-audit", "--no-fund"], networkEnv(), 300_000, cwd);
    if (run.code !== 0)
      throw new Error(`npm ${args.join(" ")} exited ${run.code}:\n${run.stdout}${run.stderr}`);
    return run;
  };
  try {
    await npm(["pack", "--ignore-scripts", "--pack-destination", dir], ROOT);
    const tarball = (await readdir(dir)).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new Error(`npm pack left no tarball in ${dir}`);
    const app = path.join(dir, "app");
    await mkdir(app);
    await writeFile(path.join(app, "package.json"), '{ "name": "uses-regwatch", "private": true }\n');
    // A fetch that stalls (npm waits 5 minutes by default, the whole hook's time) is given up
    // after 30 s and tried again: a version the cache lacks is fetched, the rest come from it.
    await npm(
      [
        "install",
        "--omit=dev",
        "--omit=optional",
        "--prefer-offline",
        "--fetch-timeout=30000",
        "--fetch-retries=4",
        path.join(dir, tarball),
      ],
      app,
    );
    return {
      dir: app,
      root: path.join(app, "node_modules", "regwatch"),
      bin: path.join(app, "node_modules", ".bin", "regwatch"),
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The variables by which this machine reaches the npm registry, for the npm the test starts with an
 * otherwise clean environment: a proxy, the certificate authorities it trusts (a network whose
 * proxy presents its own certificate fails every fetch without them, and npm retries for minutes).
 * npm's settings come from its files (HOME), not from the npm_config_ variables `npm test` sets,
 * which name this checkout. A packument the cache lacks (`npm ci` keeps tarballs only) is fetched.
 */
function networkEnv(): Record<string, string | undefined> {
  const names = /^(HTTPS?_PROXY|NO_PROXY|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR))$/i;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => names.test(name)));
}
