/**
 * The baseline: the schema its first migrations build, written once as the statements that build
 * it directly (migrations/baseline.sql, from `npm run db:baseline`). A fresh schema is built from
 * it instead of replaying those migrations one by one: the same tables, columns, constraints,
 * indexes, views, functions, triggers and comments (test/db/migration-baseline.test.ts compares
 * the two catalogs), without the intermediate tables altered, views rebuilt and functions replaced
 * on the way. Postgres spends about a third less on a fresh schema, which a fleet of a thousand
 * accounts migrates a thousand times.
 *
 * The file names how many migrations it stands for and a hash of theirs: it is used only for a
 * list whose first migrations are exactly those, so a migration edited after the baseline was
 * written makes the migrator replay the migrations instead.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Migration } from "./migration-files.ts";

export const BASELINE_FILE = "baseline.sql";

export interface Baseline {
  /** How many of the first migrations it stands for. */
  covers: number;
  /** coveredHash of those migrations. */
  hash: string;
  /** The statements, for schema `regwatch` (retargetMigration points them at another). */
  sql: string;
}

/** The file's first two lines. */
const HEADER = /^-- covers (\d+) migrations, through (\S+)\n-- hash ([0-9a-f]{64})\n/;

const cache = new Map<string, Baseline | null>();

/** The baseline kept in `folder`, or undefined when there is none (read once per process). */
export function readBaseline(folder: string): Baseline | undefined {
  const known = cache.get(folder);
  if (known !== undefined) return known ?? undefined;
  const file = path.join(folder, BASELINE_FILE);
  const baseline = existsSync(file) ? parseBaseline(readFileSync(file, "utf8"), file) : null;
  cache.set(folder, baseline);
  return baseline ?? undefined;
}

export function parseBaseline(text: string, where = BASELINE_FILE): Baseline {
  const header = HEADER.exec(text);
  if (!header)
    throw new Error(
      `${where}: does not begin with "-- covers N migrations, through TAG" and "-- hash HEX" lines`,
    );
  return { covers: Number(header[1]), hash: header[3]!, sql: text };
}

/** One hash of the migrations' own hashes, in order: what a baseline records of what it covers. */
export function coveredHash(migrations: readonly Migration[]): string {
  const hash = createHash("sha256");
  for (const m of migrations) hash.update(`${m.tag} ${m.hash}\n`);
  return hash.digest("hex");
}

/** `baseline` when `migrations` begin with exactly the migrations it covers, else undefined. */
export function baselineFor(
  baseline: Baseline | undefined,
  migrations: readonly Migration[],
): Baseline | undefined {
  if (baseline === undefined || baseline.covers < 1 || baseline.covers > migrations.length) return undefined;
  return coveredHash(migrations.slice(0, baseline.covers)) === baseline.hash ? baseline : undefined;
}

/** The header a baseline of `migrations` starts with. */
export function baselineHeader(migrations: readonly Migration[]): string {
  const last = migrations.at(-1);
  if (last === undefined) throw new Error("a baseline needs at least one migration");
  return `-- covers ${migrations.length} migrations, through ${last.tag}\n-- hash ${coveredHash(migrations)}\n`;
}
