/**
 * Account names and the schemas they map to. A plain install keeps its tables in schema `regwatch`;
 * each account of an accounts file keeps them in `regwatch_<name>`.
 */

/** The schema of the one account regwatch serves without an accounts file. */
export const DEFAULT_SCHEMA = "regwatch";

/** An account's name as the accounts file allows it; its schema name stays well within Postgres's 63. */
export const ACCOUNT_NAME = /^[a-z][a-z0-9_]{0,29}$/;

/** Names whose schema would be the fleet's own (src/fleet/sql/view-pieces.ts): no account may take them. */
export const RESERVED_ACCOUNT_NAMES: readonly string[] = ["fleet", "fleet_parts"];

/** The schema of the named account. */
export function accountSchema(account: string): string {
  if (!ACCOUNT_NAME.test(account)) throw new Error(`"${account}" is not an account name`);
  return `${DEFAULT_SCHEMA}_${account}`;
}
