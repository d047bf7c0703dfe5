/**
 * The floors of src/, checked over every relative import (docs/architecture.md draws them):
 *
 *   8  commands (and cli.ts, cli-status.ts, cli-overview.ts)   the command line
 *   7  daemon | doctor | web                                   hosts
 *   6  fleet                                                   many accounts' workers
 *   5  jobs | status                                           what combines features
 *   4  sync | reconcile | alerts | payments | search | console | retention features, each with its SQL
 *   3  run | parse | i18n                                      shared machinery
 *   2  changes                                                 changes as people read them
 *   1  db | api | formats                                      plumbing, the registry, file formats
 *   0  the files directly in src/ (dates, errors, config, logger, taxid, secrets)
 *
 * A file imports from its own folder or from a floor below its own; folders on one floor never
 * import each other (features never import features). Only commands/ may import the emulator,
 * which uses only the floor-0 files. Within a folder, files import each other without a circle.
 *
 *   node bin/run-ts.js scripts/check-layers.ts [dir]   # exit 1 listing every import against it
 *
 * `dir` defaults to this repository's src/. `npm run check` runs it.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FOUNDATION = 0;
const FLOORS: readonly (readonly string[])[] = [
  [],
  ["db", "api", "formats"],
  ["changes"],
  ["run", "parse", "i18n"],
  ["sync", "reconcile", "alerts", "payments", "search", "console", "retention"],
  ["jobs", "status"],
  ["fleet"],
  ["daemon", "doctor", "web"],
  ["commands"],
];
const FLOOR_OF: ReadonlyMap<string, number> = new Map(
  FLOORS.flatMap((folders, floor) => folders.map((folder) => [folder, floor] as const)),
);
const EMULATOR = "emulator";

export interface LayerViolation {
  file: string;
  imports: string;
  reason: string;
}

/** The command line's entry files, directly in src/, which sit with the commands. */
const ENTRIES: ReadonlySet<string> = new Set(["cli.ts", "cli-status.ts", "cli-overview.ts"]);

const IMPORT =
  /(?:^|\n)\s*(?:import|export)[^"'`;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

/** Folder under src/ a path belongs to; "" for the foundation files directly in src/. */
function areaOf(relative: string): string {
  const parts = relative.split("/");
  if (parts.length === 1) return ENTRIES.has(parts[0]!) ? "commands" : "";
  return parts[0]!;
}

function floorOf(area: string): number | undefined {
  return area === "" ? FOUNDATION : FLOOR_OF.get(area);
}

/** Every relative import of each file, as paths relative to src/ (those leaving src/ left out). */
function importsOf(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets: string[] = [];
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2]!;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (!target.startsWith("..")) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Every import against the floors, and every circle of imports among one folder's files. */
export function findViolations(files: ReadonlyMap<string, string>): LayerViolation[] {
  const graph = importsOf(files);
  const violations: LayerViolation[] = [];
  for (const [file, targets] of graph) {
    const from = areaOf(file);
    for (const target of targets) {
      const to = areaOf(target);
      if (to === from) continue;
      const reason = judge(from, to);
      if (reason) violations.push({ file: `src/${file}`, imports: `src/${target}`, reason });
    }
  }
  return [...violations, ...findCircles(graph)];
}

function judge(from: string, to: string): string | undefined {
  if (to === EMULATOR) return from === "commands" ? undefined : "only commands/ may import the emulator";
  if (from === EMULATOR) return to === "" ? undefined : "the emulator uses only the foundation files";
  const fromFloor = floorOf(from);
  const toFloor = floorOf(to);
  if (fromFloor === undefined) return `src/${from}/ has no floor: add it to scripts/check-layers.ts`;
  if (toFloor === undefined) return `src/${to}/ has no floor: add it to scripts/check-layers.ts`;
  if (toFloor > fromFloor)
    return `${from}/ (floor ${fromFloor}) imports upward into ${to}/ (floor ${toFloor})`;
  if (toFloor === fromFloor) return `${from}/ imports ${to}/, its peer on floor ${fromFloor}`;
  return undefined;
}

/**
 * Circles of imports between files of one folder (Tarjan's strongly connected components over
 * the imports that stay in the folder): each is reported once, at its first file in name order.
 */
function findCircles(graph: ReadonlyMap<string, readonly string[]>): LayerViolation[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const inFolder = (file: string) =>
    (graph.get(file) ?? []).filter((t) => graph.has(t) && areaOf(t) === areaOf(file) && t !== file);
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of inFolder(file)) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return circles.map((component) => ({
    file: `src/${component[0]}`,
    imports: component
      .slice(1)
      .map((f) => `src/${f}`)
      .join(", "),
    reason: `a circle of imports among ${component.length} files of src/${areaOf(component[0]!) || "."}/`,
  }));
}

export async function readSources(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(root, full).split(path.sep).join("/"), await readFile(full, "utf8"));
  }
  return files;
}

async function main(): Promise<void> {
  const root = process.argv[2]
    ? path.resolve(process.argv[2])
    : fileURLToPath(new URL("../src", import.meta.url));
  const violations = findViolations(await readSources(root));
  if (violations.length === 0) {
    process.stdout.write("check-layers: every import points down, and no folder holds a circle\n");
    return;
  }
  for (const v of violations) process.stderr.write(`${v.file} imports ${v.imports}: ${v.reason}\n`);
  process.stderr.write(`check-layers: ${violations.length} import(s) against the floors\n`);
  process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
