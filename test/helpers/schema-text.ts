import type { Sql } from "postgres";

/**
 * Every row of every table in a schema as text, one line per row prefixed with its table, read
 * through the driver. Tests that check a secret is stored nowhere search this text; a pg_dump of
 * whatever version happens to be on the PATH refuses a newer server (and its failure message
 * carries the connection URL with the password).
 */
export async function schemaText(sql: Sql, schema = "regwatch"): Promise<string> {
  const tables = await sql<{ name: string }[]>`
    select c.relname as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = ${schema} and c.relkind in ('r', 'p')
     order by c.relname`;
  if (tables.length === 0) throw new Error(`schema ${schema} has no tables`);
  const lines: string[] = [];
  for (const { name } of tables) {
    // A row's text form holds every column, jsonb and arrays included, as Postgres prints them.
    const rows = await sql<{ row: string }[]>`select t::text as row from ${sql(schema)}.${sql(name)} t`;
    for (const { row } of rows) lines.push(`${name}: ${row}`);
  }
  return lines.join("\n");
}
