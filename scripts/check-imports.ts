/**
 * No `import()` of a CommonJS package in src/: such a package is loaded when needed with
 * `requirePackage` (src/require-package.ts), which answers alike wherever regwatch runs.
 *
 *   const { Webhook } = requirePackage<typeof import("standardwebhooks")>("standardwebhooks"); // allowed
 *   const { Webhook } = await import("standardwebhooks");                                       // refused
 *
 * Why: an import() of CommonJS answers with the package's exports by name and under `default`
 * from Node's own loader, under `default` only from the build (esbuild's chunk), and by name only
 * from the sources under tsx (the package says `__esModule`): a name read from the answer was
 * undefined in the build alone, and the build sent no webhook (issue 46). Whether a package is
 * CommonJS is Node's own answer: the file its `import` condition resolves to, and the nearest
 * package.json's "type" above it. An ES module package may be imported; a type (`typeof
 * import("pkg")`) is not an import.
 *
 *   node bin/run-ts.js scripts/check-imports.ts [dir]   # exit 1 listing every such import
 *
 * `dir` defaults to this repository's src/. `npm run check` runs it.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readSources } from "./check-layers.ts";

export interface ImportProblem {
  file: string;
  line: number;
  specifier: string;
  reason: string;
}

/** `import("pkg")` of a package (not a relative path): built-ins are told apart by their `node:`. */
const DYNAMIC_IMPORT = /(typeof\s+)?import\(\s*["']([^"'./][^"']*)["']\s*\)/g;

/** Every import() of a CommonJS package among `files` (paths relative to src/, with their text). */
export function findCommonJsImports(
  files: ReadonlyMap<string, string>,
  isCommonJs: (specifier: string) => boolean,
): ImportProblem[] {
  const problems: ImportProblem[] = [];
  for (const [file, text] of files) {
    for (const match of text.matchAll(DYNAMIC_IMPORT)) {
      const specifier = match[2]!;
      if (match[1] !== undefined || specifier.startsWith("node:") || !isCommonJs(specifier)) continue;
      problems.push({
        file: `src/${file}`,
        line: text.slice(0, match.index).split("\n").length,
        specifier,
        reason: `"${specifier}" is CommonJS: load it with requirePackage("${specifier}") (src/require-package.ts), not import(), whose answer differs between the build and the sources`,
      });
    }
  }
  return problems;
}

/** Whether Node loads `specifier`, imported from `fromDir`, as CommonJS. Built-ins are not. */
export function resolvesToCommonJs(specifier: string, fromDir: string): boolean {
  const resolved = import.meta.resolve(specifier, pathToFileURL(path.join(fromDir, "index.ts")).href);
  if (!resolved.startsWith("file:")) return false;
  const file = fileURLToPath(resolved);
  if (file.endsWith(".cjs")) return true;
  if (file.endsWith(".mjs")) return false;
  // Node's rule: the nearest package.json decides, and one without "type" means CommonJS.
  for (let dir = path.dirname(file); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, "utf8")) as { type?: string }).type !== "module";
  }
  return true;
}

async function main(): Promise<void> {
  const root = process.argv[2]
    ? path.resolve(process.argv[2])
    : fileURLToPath(new URL("../src", import.meta.url));
  const problems = findCommonJsImports(await readSources(root), (specifier) =>
    resolvesToCommonJs(specifier, root),
  );
  if (problems.length === 0) {
    process.stdout.write("check-imports: no import() of a CommonJS package\n");
    return;
  }
  for (const p of problems) process.stderr.write(`${p.file}:${p.line}: ${p.reason}\n`);
  process.stderr.write(`check-imports: ${problems.length} import() of a CommonJS package\n`);
  process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
