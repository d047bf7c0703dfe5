/** NOTIFY channel: pg_notify on the rule's channel, for systems that LISTEN on Postgres. */
import type { TransactionSql } from "postgres";
import { redactError } from "../secrets.ts";
import type { AttemptOutcome } from "./retry-policy.ts";

/**
 * Sent from inside the delivery transaction, so listeners hear it exactly when the attempt is
 * recorded as sent; a savepoint keeps a refused notification from aborting that transaction.
 */
export async function sendNotify(
  tx: TransactionSql,
  channel: string,
  payload: string,
): Promise<AttemptOutcome> {
  try {
    await tx.savepoint((sp) => sp`select pg_notify(${channel}, ${payload})`);
    return { kind: "sent", reply: "notified" };
  } catch (error) {
    // 22023 (invalid parameter, e.g. an empty channel name) does not get better by retrying.
    const code = (error as { code?: string }).code;
    const message = `pg_notify failed: ${redactError(error)}`;
    return code === "22023" ? { kind: "dead", error: message } : { kind: "retry", error: message };
  }
}
