/**
 * `doctor --account`: whether the registry's refusal of the account's key holds its jobs back
 * (key_refusals in the account's schema, judged against the variable's value now; see
 * src/fleet/key-hold.ts). Names the variable, never the key.
 */
import { keyFingerprint } from "../account-keys.ts";
import type { Config } from "../config.ts";
import { localDateTime } from "../dates.ts";
import { openDatabase } from "../db/connect.ts";
import { coerceError } from "../errors.ts";
import { describeKeyHold, keyHold } from "../fleet/key-hold.ts";
import { keyRefusals } from "../fleet/sql/key-refusals.ts";
import { redactSecrets } from "../secrets.ts";
import { type CheckResult, fail, ok, warn } from "./report.ts";

export const KEY_REFUSAL = "key refusal";

export async function checkKeyRefusal(
  config: Config,
  variable: string,
  now = new Date(),
): Promise<CheckResult> {
  let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    db = await openDatabase(config, { max: 1 });
    const refusal = (await keyRefusals(db.sql)).find((r) => r.keyVariable === variable);
    if (!refusal) return ok(KEY_REFUSAL, `no refusal of the key in ${variable} is recorded`);
    const fingerprint = config.apiKey === undefined ? undefined : keyFingerprint(config.apiKey);
    const hold = keyHold(refusal, fingerprint, localDateTime(now, config.tz).date);
    const message = describeKeyHold(refusal, hold);
    if (hold !== "held") return warn(KEY_REFUSAL, message, "nothing to do if the new key is the right one");
    return fail(
      KEY_REFUSAL,
      message,
      `set ${variable} to the key issued for this environment and restart the workers, or ask the provider why the key is refused`,
    );
  } catch (error) {
    return warn(
      KEY_REFUSAL,
      `not checked: ${redactSecrets(coerceError(error).message)}`,
      "see the database line",
    );
  } finally {
    await db?.close().catch(() => {});
  }
}
