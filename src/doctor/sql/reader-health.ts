/**
 * What `regwatch doctor` says of the reader roles: which roles read the schema (those recorded by
 * `grant-reader`, and those an earlier release's grant-reader left: USAGE on the schema and no
 * right to write any of its tables), what data each cannot read, and what private table or column
 * it can (src/db/reader-classes.ts decides which is which). Reads the catalogue only.
 */
import type { Sql } from "../../db/connect.ts";
import { judgeAccess, type ReaderRole } from "../../db/reader-classes.ts";

export type { ReaderRole } from "../../db/reader-classes.ts";

/** The schema's reader roles with what each misses and what each may read but should not. */
export async function readerRoles(sql: Sql): Promise<ReaderRole[]> {
  const [table] = await sql<
    { recorded: boolean }[]
  >`select to_regclass(${`${sql.schema}.reader_roles`}) is not null as recorded`;
  const recorded = table?.recorded
    ? (await sql<{ role: string }[]>`select role from ${sql.t.reader_roles}`).map((r) => r.role)
    : [];
  const rows = await sql<{ role: string; tables: string[]; columns: string[]; defaults: boolean }[]>`
    with ns as (select oid, nspowner from pg_namespace where nspname = ${sql.schema}::text),
    readers as (
      select r.oid, r.rolname from pg_roles r, ns
      where r.rolname = any (${recorded}::text[])
         or (r.oid in (select acl.grantee from pg_namespace n cross join lateral aclexplode(n.nspacl) acl
                       where n.oid = ns.oid and acl.privilege_type = 'USAGE' and acl.grantee <> ns.nspowner)
             and not exists (
               select 1 from pg_class c
               where c.relnamespace = ns.oid and c.relkind in ('r', 'p')
                 and (has_table_privilege(r.oid, c.oid, 'INSERT') or has_table_privilege(r.oid, c.oid, 'UPDATE')
                      or has_table_privilege(r.oid, c.oid, 'DELETE'))))
    )
    select g.rolname as role,
      coalesce((select array_agg(c.relname order by c.relname) from pg_class c, ns
                where c.relnamespace = ns.oid and c.relkind in ('r', 'p', 'v', 'm')
                  and has_table_privilege(g.oid, c.oid, 'SELECT')), '{}') as tables,
      coalesce((select array_agg(c.relname || '.' || a.attname order by c.relname, a.attnum)
                from pg_class c join pg_attribute a on a.attrelid = c.oid, ns
                where c.relnamespace = ns.oid and c.relkind in ('r', 'p', 'v', 'm')
                  and a.attnum > 0 and not a.attisdropped
                  and has_column_privilege(g.oid, c.oid, a.attnum, 'SELECT')), '{}') as columns,
      exists (select 1 from pg_default_acl d cross join lateral aclexplode(d.defaclacl) x, ns
              where d.defaclnamespace = ns.oid and d.defaclobjtype = 'r' and x.grantee = g.oid) as defaults
    from readers g
    order by g.rolname`;
  const relations = await sql<{ name: string; columns: string[] }[]>`
    select c.relname as name,
           array(select a.attname from pg_attribute a where a.attrelid = c.oid and a.attnum > 0
                 and not a.attisdropped order by a.attnum) as columns
    from pg_class c
    where c.relnamespace = to_regnamespace(${sql.schema}::text) and c.relkind in ('r', 'p', 'v', 'm')
    order by c.relname`;
  return rows.map((r) => judgeAccess(r.role, relations, new Set(r.tables), new Set(r.columns), r.defaults));
}
