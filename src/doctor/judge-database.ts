/**
 * The database as the daily run needs it: reachable, every migration applied (the doctor never
 * applies one: it only reports), writable by this role, and readable by the roles given read
 * access for BI tools. Pure: the facts come from src/doctor/sql/health.ts.
 */

import type { ReaderRole } from "../db/reader-classes.ts";
import { type CheckResult, fail, ok, warn } from "./report.ts";
import type { DatabaseIdentity, MigrationState, WriteRights } from "./sql/health.ts";

export const DATABASE = "database";
export const MIGRATIONS = "migrations";
export const WRITES = "database writes";
export const READERS = "reader roles";

const MIGRATE = "run `regwatch migrate` (the daemon also applies pending migrations when it starts)";

export function judgeReached(
  identity: DatabaseIdentity,
  origin: "DATABASE_URL" | "embedded",
  dataDir: string,
): CheckResult {
  const where = origin === "embedded" ? `the embedded Postgres under ${dataDir}` : "DATABASE_URL";
  return ok(
    DATABASE,
    `reached ${where} as role ${identity.user}, database ${identity.database} (PostgreSQL ${identity.serverVersion})`,
  );
}

export function judgeUnreached(message: string, origin: "DATABASE_URL" | "embedded"): CheckResult {
  const next =
    origin === "DATABASE_URL"
      ? "check DATABASE_URL (host, port, database, user, password) and that the server accepts this machine"
      : "unset DATABASE_URL only when the embedded Postgres is wanted; check REGWATCH_DATA_DIR is writable";
  return fail(DATABASE, `not reachable: ${message}`, next);
}

/**
 * Every migration applied, and the database counting the views' days in REGWATCH_REGISTRY_TZ
 * (`calendar`: its registry_zone(), undefined when it was not read, and the configured zone).
 */
export function judgeMigrations(
  state: MigrationState,
  calendar?: { database: string | undefined; configured: string },
): CheckResult {
  if (state.pending.length > 0) {
    const names = state.pending.slice(0, 5).join(", ") + (state.pending.length > 5 ? ", ..." : "");
    return fail(
      MIGRATIONS,
      `${state.pending.length} of ${state.shipped} migrations not applied (${names}); the doctor does not apply them`,
      MIGRATE,
    );
  }
  if (state.applied > state.shipped) {
    return warn(
      MIGRATIONS,
      `the database has ${state.applied} migrations, this regwatch knows ${state.shipped}: a newer version migrated it`,
      "run the regwatch version that migrated this database",
    );
  }
  if (calendar?.database !== undefined && calendar.database !== calendar.configured) {
    return warn(
      MIGRATIONS,
      `all ${state.shipped} migrations applied, but the views count the registry's days in ${calendar.database}, not in REGWATCH_REGISTRY_TZ=${calendar.configured}`,
      "run `regwatch migrate` (or restart the daemon): it writes REGWATCH_REGISTRY_TZ into the database",
    );
  }
  return ok(MIGRATIONS, `all ${state.shipped} migrations applied`);
}

/** SQLSTATE of a write refused because the transaction or the server is read-only. */
const READ_ONLY = "25006";
const PERMISSION_DENIED = "42501";

export function judgeWrites(rights: WriteRights, role: string): CheckResult {
  const grant = `GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA regwatch TO "${role}" and GRANT USAGE ON ALL SEQUENCES IN SCHEMA regwatch TO "${role}", or connect as the schema's owner`;
  if (rights.writeRefused) {
    const { message, code } = rights.writeRefused;
    const next =
      code === READ_ONLY
        ? "connect to the primary server: this one accepts no writes (a standby, or default_transaction_read_only)"
        : code === PERMISSION_DENIED
          ? grant
          : "check the server's log for why a write fails";
    return fail(
      WRITES,
      `a test write (rolled back) was refused: ${message}${code ? ` (SQLSTATE ${code})` : ""}`,
      next,
    );
  }
  const lacking = [
    ...rights.missing.map((m) => `${m.table} (${m.privileges.join(", ")})`),
    ...rights.missingSequences.map((s) => `sequence ${s} (USAGE)`),
  ];
  if (lacking.length > 0) {
    const shown =
      lacking.slice(0, 5).join(", ") + (lacking.length > 5 ? `, and ${lacking.length - 5} more` : "");
    return fail(WRITES, `role ${role} may not write everything the runs write: ${shown}`, grant);
  }
  if (!rights.canMigrate) {
    return warn(
      WRITES,
      `role ${role} may write every table (a test write was rolled back) but may not create in schema regwatch, so it cannot apply a later migration`,
      "after each upgrade, run `regwatch migrate` as the schema's owner before the daemon starts",
    );
  }
  return ok(WRITES, `role ${role} may write every table (a test write was rolled back)`);
}

export function judgeReaders(roles: readonly ReaderRole[]): CheckResult {
  if (roles.length === 0) {
    return ok(READERS, "no role was given read access (`regwatch grant-reader ROLE` does it for a BI tool)");
  }
  const listed = (names: readonly string[]) =>
    `${names.slice(0, 3).join(", ")}${names.length > 3 ? `, and ${names.length - 3} more` : ""}`;
  const again = (short: readonly ReaderRole[]) =>
    `run ${short.map((r) => `regwatch grant-reader ${r.role}`).join(", ")} (as the schema's owner) again`;
  const exposed = roles.filter((r) => r.exposed.length > 0);
  if (exposed.length > 0) {
    const described = exposed.map((r) => `${r.role} can read ${listed(r.exposed)}`).join("; ");
    return fail(
      READERS,
      `${described}: sign-in data or alert targets are not for readers`,
      `${again(exposed)}: it grants the data only and takes the rest back`,
    );
  }
  const short = roles.filter((r) => r.unreadable.length > 0);
  if (short.length > 0) {
    const described = short.map((r) => `${r.role} cannot read ${listed(r.unreadable)}`).join("; ");
    return warn(READERS, described, again(short));
  }
  return ok(
    READERS,
    `${roles.map((r) => r.role).join(", ")} can read every data table and view (sign-in data and alert targets withheld)`,
  );
}
