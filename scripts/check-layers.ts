/**
 * The dependency direction of src/, checked over every relative import:
 *
 *   commands (and cli.ts, cli-status.ts, cli-overview.ts) → daemon | doctor | web → engine (sync, reconcile, alerts, payments, search, parse, run, fleet, i18n)
 *     → api | db → foundation (the files directly in src/: dates, errors, config, logger, taxid, secrets)
 *
 * A file may import from its own folder and from any layer below its own. `api/` and `db/` are
 * peers that import neither each other nor anything above. Engine folders may use one another.
 * Only commands/ (and tests, which are not checked here) may import the emulator.
 *
 *   node bin/run-ts.js scripts/check-layers.ts [dir]   # exit 1 listing every upward import
 *
 * `dir` defaults to this repository's src/. `npm run check` runs it.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FOUNDATION = 0;
const LAYER_OF: Record<string, number> = {
  api: 1,
  db: 1,
  sync: 2,
  reconcile: 2,
  alerts: 2,
  payments: 2,
  search: 2,
  parse: 2,
  feed: 2,
  run: 2,
  fleet: 2,
  i18n: 2,
  daemon: 3,
  doctor: 3,
  web: 3,
  commands: 4,
};
/** Peers at the same layer that must stay apart. */
const SEPARATE = new Set(["api>db", "db>api"]);
const EMULATOR = "emulator";

export interface LayerViolation {
  file: string;
  imports: string;
  reason: string;
}

/** The command line's entry files, directly in src/, which sit with the commands. */
const ENTRIES: ReadonlySet<string> = new Set(["cli.ts", "cli-status.ts", "cli-overview.ts"]);

/** Folder under src/ a path belongs to; "" for the foundation files directly in src/. */
function areaOf(relative: string): string {
  const parts = relative.split("/");
  if (parts.length === 1) return ENTRIES.has(parts[0]!) ? "commands" : "";
  return parts[0]!;
}

function layerOf(area: string): number | undefined {
  return area === "" ? FOUNDATION : LAYER_OF[area];
}

/** Every upward or forbidden import among the given files (paths relative to src/, with their text). */
export function findViolations(files: ReadonlyMap<string, string>): LayerViolation[] {
  const violations: LayerViolation[] = [];
  const importPattern =
    /(?:^|\n)\s*(?:import|export)[^"'`;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;
  for (const [file, text] of files) {
    const from = areaOf(file);
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2]!;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (target.startsWith("..")) continue; // outside src/ (package.json and the like)
      const to = areaOf(target);
      if (to === from) continue;
      const reason = judge(from, to);
      if (reason) violations.push({ file: `src/${file}`, imports: `src/${target}`, reason });
    }
  }
  return violations;
}

function judge(from: string, to: string): string | undefined {
  if (to === EMULATOR) return from === "commands" ? undefined : "only commands/ may import the emulator";
  if (from === EMULATOR) return to === "" ? undefined : "the emulator uses only the foundation files";
  const fromLayer = layerOf(from);
  const toLayer = layerOf(to);
  if (fromLayer === undefined) return `src/${from}/ has no layer: add it to scripts/check-layers.ts`;
  if (toLayer === undefined) return `src/${to}/ has no layer: add it to scripts/check-layers.ts`;
  if (SEPARATE.has(`${from}>${to}`)) return `${from}/ and ${to}/ are peers that do not import each other`;
  if (toLayer > fromLayer)
    return `${from}/ (layer ${fromLayer}) imports upward into ${to || "src"}/ (layer ${toLayer})`;
  if (toLayer === fromLayer && fromLayer !== LAYER_OF.sync) {
    return `${from}/ imports its peer ${to}/ at the same layer`;
  }
  return undefined;
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
    process.stdout.write("check-layers: every import points down\n");
    return;
  }
  for (const v of violations) process.stderr.write(`${v.file} imports ${v.imports}: ${v.reason}\n`);
  process.stderr.write(`check-layers: ${violations.length} import(s) against the layering\n`);
  process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
