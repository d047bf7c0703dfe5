import type postgres from "postgres";

/**
 * Everything the catalog says of the objects in `schema` that a user of it could tell apart: each
 * relation's kind and options, each column's name, place, type, default, nullability and
 * collation, every constraint, index, view, function, trigger and sequence as Postgres prints it
 * back, and every comment; the schema's name replaced by `S`. Attribute numbers, oids and
 * dependency rows are left out: they differ between two ways of building the same schema.
 */
export async function catalogFingerprint(sql: postgres.Sql, schema: string): Promise<string[]> {
  const rows = await sql<{ kind: string; line: string }[]>`
    with ns as (select oid from pg_namespace where nspname = ${schema}),
    rels as (select c.* from pg_class c where c.relnamespace = (select oid from ns) and c.relkind <> 't')
    select 'relation' as kind,
           format('%s %s persistence=%s options=%s replident=%s rls=%s', relname, relkind, relpersistence,
                  coalesce(reloptions::text, ''), relreplident, relrowsecurity) as line
    from rels
    union all
    select 'column', format('%s #%s %s %s notnull=%s default=%s identity=%s generated=%s collation=%s',
           c.relname, row_number() over (partition by c.oid order by a.attnum), a.attname,
           format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid),
           a.attidentity, a.attgenerated, a.attcollation::regcollation)
    from rels c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
    union all
    select 'constraint', format('%s %s %s', r.relname, con.conname, pg_get_constraintdef(con.oid))
    from pg_constraint con join rels r on r.oid = con.conrelid
    union all
    select 'index', pg_get_indexdef(i.indexrelid) from pg_index i join rels r on r.oid = i.indrelid
    union all
    select 'view', format('%s %s', relname, pg_get_viewdef(oid, true)) from rels where relkind in ('v', 'm')
    union all
    select 'function', pg_get_functiondef(p.oid) from pg_proc p where p.pronamespace = (select oid from ns)
    union all
    select 'trigger', pg_get_triggerdef(t.oid) from pg_trigger t join rels r on r.oid = t.tgrelid
    where not t.tgisinternal
    union all
    select 'sequence', format('%s %s start=%s inc=%s min=%s max=%s cache=%s cycle=%s owned=%s',
           c.relname, format_type(s.seqtypid, null), s.seqstart, s.seqincrement, s.seqmin, s.seqmax,
           s.seqcache, s.seqcycle, (select format('%s.%s', o.relname, a.attname) from pg_depend dep
             join pg_class o on o.oid = dep.refobjid
             join pg_attribute a on a.attrelid = dep.refobjid and a.attnum = dep.refobjsubid
             where dep.classid = 'pg_class'::regclass and dep.objid = c.oid and dep.deptype in ('a', 'i')))
    from rels c join pg_sequence s on s.seqrelid = c.oid
    union all
    select 'comment', format('%s: %s', o.type || ' ' || o.identity, d.description)
    from pg_description d cross join lateral pg_identify_object(d.classoid, d.objoid, d.objsubid) o
    where o.schema = ${schema} or (o.type = 'schema' and o.identity = quote_ident(${schema}))
       or (o.type in ('table constraint', 'trigger') and o.identity like '% on ' || quote_ident(${schema}) || '.%')`;
  const named = new RegExp(`"?\\b${schema}\\b"?`, "g");
  return rows.map((r) => `${r.kind} ${r.line.replace(named, "S")}`).sort();
}
