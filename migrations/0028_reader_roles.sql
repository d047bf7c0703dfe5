-- Readers of the tables read data, not credentials (issue 37).
--
-- reader_roles: the roles given read access with `regwatch grant-reader ROLE`. Their grants are
-- applied again after every migration that changes the schema, so a data table added later
-- reaches them and a private one (console sign-in data, where alert messages go) never does.
-- Roles a grant-reader of an earlier release gave SELECT on every table are recorded here too (a
-- role with USAGE on the schema that may not write any of its tables): the migrator re-applies
-- their grants right after this migration, which takes the private tables and columns from them.
CREATE TABLE "regwatch"."reader_roles" (
	"role" text PRIMARY KEY NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "regwatch"."reader_roles" ("role")
SELECT DISTINCT r.rolname
FROM pg_namespace n
CROSS JOIN LATERAL aclexplode(n.nspacl) acl
JOIN pg_roles r ON r.oid = acl.grantee
WHERE n.nspname = current_schema() AND acl.privilege_type = 'USAGE' AND acl.grantee <> n.nspowner
  AND NOT EXISTS (
    SELECT 1 FROM pg_class c
    WHERE c.relnamespace = n.oid AND c.relkind IN ('r', 'p')
      AND (has_table_privilege(r.oid, c.oid, 'INSERT') OR has_table_privilege(r.oid, c.oid, 'UPDATE')
           OR has_table_privilege(r.oid, c.oid, 'DELETE')))
ON CONFLICT DO NOTHING;
--> statement-breakpoint
COMMENT ON TABLE regwatch.reader_roles IS 'Roles given read access (regwatch grant-reader): the data tables and views, never the console''s sign-in tables or where alert messages go; their grants are applied again after each migration.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.reader_roles.role IS 'Name of the Postgres role.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.reader_roles.granted_at IS 'When grant-reader first recorded it (or the migration found it reading the schema).';
