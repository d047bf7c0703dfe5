import { describe, expect, it } from "vitest";
import { accountSchema } from "../../src/account-name.ts";
import { retargetMigration } from "../../src/db/schema-name.ts";

describe("an account's copy of a migration", () => {
  it("points every reference to schema regwatch at the account's schema", () => {
    const statement = [
      'CREATE SCHEMA "regwatch";',
      "COMMENT ON SCHEMA regwatch IS 'regwatch keeps its tables here';",
      'CREATE TABLE "regwatch"."runs" ("id" bigserial);',
      'ALTER TABLE "regwatch"."files" ADD CONSTRAINT f FOREIGN KEY ("run") REFERENCES "regwatch"."runs"("id");',
      "CREATE VIEW regwatch.v_runs AS SELECT * FROM regwatch.runs r JOIN regwatch.files f ON true;",
      'GRANT USAGE ON SCHEMA regwatch TO reader; ALTER DEFAULT PRIVILEGES IN SCHEMA "regwatch" GRANT SELECT ON TABLES TO reader;',
      "CREATE FUNCTION regwatch.f() RETURNS int AS $$ select count(*)::int from regwatch.runs $$ LANGUAGE sql;",
    ].join("\n");
    const out = retargetMigration(statement, "regwatch_acme");
    expect(out).toBe(
      [
        'CREATE SCHEMA "regwatch_acme";',
        "COMMENT ON SCHEMA \"regwatch_acme\" IS 'regwatch keeps its tables here';",
        'CREATE TABLE "regwatch_acme"."runs" ("id" bigserial);',
        'ALTER TABLE "regwatch_acme"."files" ADD CONSTRAINT f FOREIGN KEY ("run") REFERENCES "regwatch_acme"."runs"("id");',
        "CREATE VIEW regwatch_acme.v_runs AS SELECT * FROM regwatch_acme.runs r JOIN regwatch_acme.files f ON true;",
        'GRANT USAGE ON SCHEMA "regwatch_acme" TO reader; ALTER DEFAULT PRIVILEGES IN SCHEMA "regwatch_acme" GRANT SELECT ON TABLES TO reader;',
        "CREATE FUNCTION regwatch_acme.f() RETURNS int AS $$ select count(*)::int from regwatch_acme.runs $$ LANGUAGE sql;",
      ].join("\n"),
    );
  });

  it("leaves words that only start with regwatch, values and prose alone", () => {
    const statement =
      "-- written by `regwatch watch add`.\nSELECT pg_notify('regwatch_alerts', 'x'), coalesce(by, 'regwatch') FROM regwatch_other.t;";
    expect(retargetMigration(statement, "regwatch_acme")).toBe(statement);
  });

  it("is the statement itself for the default schema, and idempotent for an account", () => {
    const statement = 'CREATE TABLE "regwatch"."runs" ("id" bigserial);';
    expect(retargetMigration(statement, "regwatch")).toBe(statement);
    const once = retargetMigration(statement, "regwatch_acme");
    expect(retargetMigration(once, "regwatch_acme")).toBe(once);
  });

  it("maps account names to schemas and refuses names outside the accounts file's rule", () => {
    expect(accountSchema("acme_2")).toBe("regwatch_acme_2");
    for (const bad of ["Acme", "2acme", "acme-x", "", "a".repeat(31)]) {
      expect(() => accountSchema(bad)).toThrow(/not an account name/);
    }
  });
});
