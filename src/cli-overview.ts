/**
 * `regwatch` without a command, `--help`, `--version`: the command line of src/cli.ts with every
 * command's summary and none of their modules. The build bundles it into one CommonJS file
 * (dist/cli-overview.cjs) with a V8 code cache made beside it (scripts/build.mjs), which
 * bin/regwatch.js runs for those command lines; a command line naming a command runs dist/cli.js.
 */
import { runCli } from "./commands/run-cli.ts";
import { COMMANDS } from "./commands/table.ts";
import { useImporter } from "./import-module.ts";

/** `importModule`: the caller's `import()`, for the packages the command line may import by name. */
export async function main(
  argv: readonly string[],
  importModule: (specifier: string) => Promise<unknown>,
): Promise<void> {
  useImporter(importModule);
  await runCli(argv, COMMANDS);
}
