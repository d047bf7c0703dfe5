/**
 * The published `regwatch` command (bin/regwatch.js, which runs dist/ only) for the benches that
 * measure what a user runs: built from the current sources first, so a number never describes an
 * older build, and the Node flags that command starts with, for scenarios run in a process of
 * their own.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const PRODUCT_BIN = fileURLToPath(new URL("../bin/regwatch.js", import.meta.url));

let built = false;

/** `npm run build` once per bench process. */
export function buildProduct(): void {
  if (built) return;
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build failed; nothing measured");
  built = true;
}

/**
 * How bin/regwatch.js starts Node for `args` (a command line such as
 * ["payments", "check", "batch.csv", "--json"]): the flags and the variables (`NAME=value`
 * before `exec node`) of its `exec node FLAGS "$0"` line, whose `case "$1 $2 $*" in PATTERN)
 * ...;; esac` branches (shell patterns, `*` for any text) come before the line's last `exec
 * node`; a branch without one falls through to it.
 */
export function binNodeStart(args: readonly string[] = []): { flags: string[]; env: Record<string, string> } {
  const exec = readFileSync(PRODUCT_BIN, "utf8")
    .split("\n", 3)
    .find((line) => line.includes("exec node "));
  if (!exec) throw new Error(`${PRODUCT_BIN} has no \`exec node\` line`);
  const startOf = (command: string) => {
    const [before, after] = command.split("exec node ") as [string, string];
    const assigned = before
      .trim()
      .split(/\s+/)
      .filter((w) => /^[A-Z_]+=\S+$/.test(w));
    return {
      flags: after
        .slice(0, after.indexOf('"$0"'))
        .split(/\s+/)
        .filter((w) => w.startsWith("--")),
      env: Object.fromEntries(assigned.map((w) => w.split("=", 2) as [string, string])),
    };
  };
  const subject = `${args[0] ?? ""} ${args[1] ?? ""} ${args.join(" ")}`;
  const cases = /case "\$1 \$2 \$\*" in (.*?) esac;/.exec(exec)?.[1] ?? "";
  for (const [, pattern, body] of cases.matchAll(/\s*((?:"[^"]*"|[^\s")])+)\)(.*?);;/g)) {
    const glob = pattern!.replace(/"([^"]*)"|\*|[^"*]/g, (part, quoted?: string) =>
      part === "*" ? ".*" : (quoted ?? part).replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    );
    if (!new RegExp(`^${glob}$`, "s").test(subject)) continue;
    if (body!.includes("exec node ")) return startOf(body!);
    break;
  }
  return startOf(exec.slice(exec.lastIndexOf("esac;") + "esac;".length));
}

/** The Node flags of binNodeStart. */
export function binNodeFlags(args: readonly string[] = []): string[] {
  return binNodeStart(args).flags;
}
