/**
 * `regwatch status` alone: the same command line as src/cli.ts, over that one command. The build
 * bundles it into one CommonJS file (dist/cli-status.cjs) with a V8 code cache made beside it
 * (scripts/build.mjs); bin/regwatch.js compiles that file with the cache and calls `main` for
 * `regwatch status`, the cheapest command that reads the database, which an operator or a monitor
 * runs often: it then starts without resolving, reading and linking the thirty chunks its code is
 * spread over in the build of every command, and without compiling what it runs.
 */
import { runCli } from "./commands/run-cli.ts";
import { registerStatus, STATUS_SUMMARY } from "./commands/status.ts";
import { useImporter } from "./import-module.ts";

/** `importModule`: the caller's `import()`, for the packages the command may import by name. */
export async function main(
  argv: readonly string[],
  importModule: (specifier: string) => Promise<unknown>,
): Promise<void> {
  useImporter(importModule);
  await runCli(argv, [{ name: "status", summary: STATUS_SUMMARY, load: async () => registerStatus }]);
}
