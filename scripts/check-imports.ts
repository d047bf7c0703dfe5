/**
 * Every `import()` of a CommonJS package in src/ reads the package through `default`, the one
 * shape that works both from the sources and from the build:
 *
 *   const { default: standardWebhooks } = await import("standardwebhooks");  // allowed
 *   const { Webhook } = await import("standardwebhooks");                    // refused
 *
 * Why: from the sources (tsx) Node's own loader answers an import() of a CommonJS module with its
 * exports by name as well as under `default`; the build (esbuild, one chunk per lazily loaded
 * package) answers with `default` only, so a name read from it is undefined there and nowhere
 * else (`Webhook is not a constructor` sent no webhook from the built command, issue 46). Whether
 * a package is CommonJS is Node's own answer: the file its `import` resolves to, and the nearest
 * package.json's "type" above it. ES module packages may be read by name.
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

/** `import("pkg")` of a package (not a relative path, not a built-in), with what precedes it. */
const DYNAMIC_IMPORT = /import\(\s*["']([^"'./][^"']*)["']\s*\)/g;
/** The only accepted use: `{ default: name } = await import(...)` or `(await import(...)).default`. */
const DEFAULT_ONLY = /(?:\{\s*default\s*:\s*[\w$]+\s*\}\s*=\s*await\s*$)/;

/**
 * Every dynamic import of a CommonJS package among `files` (paths relative to src/, with their
 * text) that reads it other than through `default`; `isCommonJs` says which packages are.
 */
export function findNamedCommonJsImports(
  files: ReadonlyMap<string, string>,
  isCommonJs: (specifier: string) => boolean,
): ImportProblem[] {
  const problems: ImportProblem[] = [];
  for (const [file, text] of files) {
    for (const match of text.matchAll(DYNAMIC_IMPORT)) {
      const specifier = match[1]!;
      if (specifier.startsWith("node:") || !isCommonJs(specifier)) continue;
      const before = text.slice(Math.max(0, match.index - 200), match.index);
      const after = text.slice(match.index + match[0].length, match.index + match[0].length + 12);
      const defaultOnly =
        DEFAULT_ONLY.test(before) || (/\(\s*await\s*$/.test(before) && /^\)\.default\b/.test(after));
      if (defaultOnly) continue;
      problems.push({
        file: `src/${file}`,
        line: text.slice(0, match.index).split("\n").length,
        specifier,
        reason: `"${specifier}" is CommonJS: read its import() as \`const { default: name } = await import("${specifier}")\` (the build answers with \`default\` only)`,
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
  const problems = findNamedCommonJsImports(await readSources(root), (specifier) =>
    resolvesToCommonJs(specifier, root),
  );
  if (problems.length === 0) {
    process.stdout.write("check-imports: every CommonJS package's import() is read through default\n");
    return;
  }
  for (const p of problems) process.stderr.write(`${p.file}:${p.line}: ${p.reason}\n`);
  process.stderr.write(`check-imports: ${problems.length} import() of CommonJS read by name\n`);
  process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
