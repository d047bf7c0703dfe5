/**
 * The registry's zone as the database counts days in it. Migration 0048 made every day the views,
 * functions and triggers take from a moment a day of `<schema>.registry_day()`, which reads the
 * zone from `<schema>.registry_zone()`: a function returning a constant, so that Postgres inlines
 * both into each statement (no call per row, no table a reader must be granted). A reader's
 * session zone changes nothing. Each migration run writes REGWATCH_REGISTRY_TZ into it when the
 * two differ (migrate.ts), so the database and regwatch's own code count one calendar.
 */
import type postgres from "postgres";

/** The body of `registry_zone()` that returns `zone` (0048 writes Europe/Budapest's). */
export function registryZoneBody(zone: string): string {
  return `select '${zone.replaceAll("'", "''")}'::text`;
}

/**
 * The zone `registry_zone()` returns in each of `schemas` (one statement over all; a schema
 * without the function, before 0048, is absent), read from the functions' bodies.
 */
export async function registryZones(
  sql: postgres.Sql | postgres.TransactionSql,
  schemas: readonly string[],
): Promise<Map<string, string>> {
  const rows = await sql<{ schema: string; body: string }[]>`
    select n.nspname as schema, p.prosrc as body
    from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where p.proname = 'registry_zone' and p.pronargs = 0 and n.nspname = any(${schemas as string[]}::text[])`;
  const zones = new Map<string, string>();
  for (const { schema, body } of rows) {
    const zone = /^select '((?:[^']|'')*)'::text$/.exec(body.trim())?.[1];
    if (zone !== undefined) zones.set(schema, zone.replaceAll("''", "'"));
  }
  return zones;
}

/**
 * Makes `schema`'s registry_zone() return `zone` when it returns another (inside the migration's
 * transaction `tx`): true when it was rewritten. A zone the database does not know is refused
 * with a message naming REGWATCH_REGISTRY_TZ, and nothing is written.
 */
export async function keepRegistryZone(
  tx: postgres.TransactionSql,
  schema: string,
  zone: string,
): Promise<boolean> {
  const current = await registryZones(tx, [schema]);
  if (!current.has(schema) || current.get(schema) === zone) return false;
  let ddl: string;
  try {
    // The statement is quoted by the server (%I, %L); `at time zone` refuses a zone it does not know.
    const [row] = await tx<{ ddl: string }[]>`
      select format('create or replace function %I.registry_zone() returns text language sql stable parallel safe as %L',
                    ${schema}::text, ${registryZoneBody(zone)}::text) as ddl,
             now() at time zone ${zone}::text as probe`;
    ddl = row!.ddl;
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(`REGWATCH_REGISTRY_TZ: the database cannot count days in "${zone}" (${message})`);
  }
  await tx.unsafe(ddl);
  return true;
}
