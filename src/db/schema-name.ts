/**
 * The schemas regwatch keeps its tables in: `regwatch` for the one account of a plain install,
 * `regwatch_<name>` for each account of an accounts file. Every schema gets the same migrations;
 * an account's copy of a statement names its own schema wherever the original names `regwatch`.
 */
import { DEFAULT_SCHEMA } from "../account-name.ts";

export { ACCOUNT_NAME, accountSchema } from "../account-name.ts";

/**
 * One migration statement with every reference to schema `regwatch` (a qualified name, quoted or
 * not, and `SCHEMA regwatch` in CREATE, COMMENT, GRANT and ALTER DEFAULT PRIVILEGES) pointed at
 * `schema`. Words that merely start with "regwatch" (`regwatch_x`, a channel, a comment's
 * "regwatch watch") are left alone: only the schema's own name followed by a dot, or after SCHEMA,
 * is a reference.
 */
export function retargetMigration(statement: string, schema: string): string {
  if (schema === DEFAULT_SCHEMA) return statement;
  return statement
    .replace(/"regwatch"\./g, `"${schema}".`)
    .replace(/\bregwatch\.(?=["a-z_])/g, `${schema}.`)
    .replace(/\b(SCHEMA\s+)"?regwatch"?(?![\w.])/gi, `$1"${schema}"`);
}
