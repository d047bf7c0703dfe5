/**
 * `migrate` of a fleet: the home schema and every account's, fast and safe to repeat. One
 * statement over every journal finds the schemas already current, which cost nothing more; the
 * others are migrated a few at once, each in one transaction of its own (migrate.ts). A new
 * account added to the file is the only one migrated by the next `migrate`. A schema whose
 * registry_zone() is not `registryTz` is not current either: its migration run rewrites it.
 */
import type { Pool } from "./connect.ts";
import { MIGRATIONS_FOLDER, migrateSchema, newestApplied } from "./migrate.ts";
import { readMigrations } from "./migration-files.ts";
import { registryZones } from "./registry-zone.ts";

/**
 * Schemas migrated at once. A fresh schema's time is mostly the server waiting on its disk (each
 * of its ~90 indexes is flushed as it is built), not its CPU: eight overlap those waits, and stay
 * few enough that their catalog writes do not crowd each other out.
 */
export const MIGRATE_PARALLEL = 8;

export interface SchemaOutcome {
  schema: string;
  applied: number;
}

/**
 * Migrates `schemas` (in order of the answer: each one's outcome is told to `onSchema` as it ends,
 * current ones first). `pool` needs `parallel` connections.
 */
export async function migrateSchemas(
  pool: Pool,
  schemas: readonly string[],
  options: { parallel?: number; onSchema?: (outcome: SchemaOutcome) => void; registryTz?: string } = {},
): Promise<SchemaOutcome[]> {
  const migrations = readMigrations(MIGRATIONS_FOLDER);
  const latest = Math.max(...migrations.map((m) => m.folderMillis));
  const { registryTz } = options;
  const [newest, zones] = await Promise.all([
    newestApplied(pool, schemas),
    registryTz === undefined ? undefined : registryZones(pool, schemas),
  ]);
  const outcomes: SchemaOutcome[] = [];
  const report = (outcome: SchemaOutcome) => {
    outcomes.push(outcome);
    options.onSchema?.(outcome);
  };
  const behind: string[] = [];
  for (const schema of schemas) {
    const zoneKept = zones === undefined || zones.get(schema) === registryTz;
    if ((newest.get(schema) ?? -1) >= latest && zoneKept) report({ schema, applied: 0 });
    else behind.push(schema);
  }
  let next = 0;
  const lane = async () => {
    while (next < behind.length) {
      const schema = behind[next++]!;
      const { applied } = await migrateSchema(pool, schema, migrations, { registryTz });
      report({ schema, applied });
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(options.parallel ?? MIGRATE_PARALLEL, behind.length) }, lane),
  );
  return outcomes;
}
