/**
 * `regwatch status` alone. The build bundles it into one CommonJS file (dist/cli-status.cjs) with
 * a V8 code cache made beside it (scripts/one-file-builds.mjs); bin/regwatch.js compiles that file
 * with the cache and calls `main` for `regwatch status`, the cheapest command that reads the
 * database, which an operator or a monitor runs often. `status` and `status --json`, the command
 * lines a monitor runs, are read here by hand: commander (and its setup) is loaded only for any
 * other (`--help`, `--account`, `--fleet`, a mistake), which it answers as src/cli.ts does.
 */
import { runStatus } from "./commands/status.ts";
import { loadDotEnv } from "./dotenv.ts";
import { useImporter } from "./import-module.ts";

/** `importModule`: the caller's `import()`, for the packages the command may import by name. */
export async function main(
  argv: readonly string[],
  importModule: (specifier: string) => Promise<unknown>,
): Promise<void> {
  useImporter(importModule);
  const plain = plainStatus(argv.slice(2));
  if (plain) {
    loadDotEnv();
    return runStatus(plain);
  }
  const [{ runCli }, { registerStatus, STATUS_SUMMARY }] = await Promise.all([
    import("./commands/run-cli.ts"),
    import("./commands/status-command.ts"),
  ]);
  await runCli(argv, [{ name: "status", summary: STATUS_SUMMARY, load: async () => registerStatus }]);
}

/**
 * The options of `status` followed by nothing but `--json` (any number of times, as commander
 * takes it); undefined for any other command line, which commander parses.
 */
export function plainStatus(args: readonly string[]): { json?: true } | undefined {
  if (args[0] !== "status" || !args.slice(1).every((arg) => arg === "--json")) return undefined;
  return args.length > 1 ? { json: true } : {};
}
