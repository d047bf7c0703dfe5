import type { Sql } from "../../src/db/connect.ts";

/**
 * Files whose change_ids or newest_change disagree with the changes that point to them (none when
 * the write path keeps the link right), each with what it holds and what it should.
 */
export async function wrongFileLinks(sql: Sql): Promise<unknown[]> {
  const rows = await sql`
    select f.path, f.change_ids::text as held, c.ids::text as expected,
           f.newest_change::text as newest_held, c.newest::text as newest_expected
    from regwatch.change_files f
    full join (
      select path, array_agg(id order by id) as ids, max(change_date) as newest
      from regwatch.changes group by path
    ) c on c.path = f.path
    where f.path is null or c.path is null
       or array(select unnest(f.change_ids) order by 1) is distinct from c.ids
       or f.newest_change is distinct from c.newest
    order by coalesce(f.path, c.path)`;
  return [...rows];
}
