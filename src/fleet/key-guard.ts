/**
 * The worker's side of a refused key: before a job that calls the registry, whether the account's
 * key is still held back by a refusal (key_refusals, see key-hold.ts); after it, the refusal
 * recorded (or the old one cleared once the key was used without one). Only a fingerprint of
 * the key is stored.
 */
import { keyFingerprint } from "../account-keys.ts";
import type { Config } from "../config.ts";
import { localDateTime } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import { redactSecrets } from "../secrets.ts";
import type { KeyRefusedError } from "./account-runs.ts";
import { describeKeyHold, keyHold } from "./key-hold.ts";
import { clearKeyRefusal, keyRefusals, recordKeyRefusal } from "./sql/key-refusals.ts";

type KeyedConfig = Pick<Config, "apiKey" | "keyVariables" | "tz">;

function keyVariable(config: KeyedConfig): string {
  return config.keyVariables?.apiKey ?? "REGWATCH_API_KEY";
}

/** Why the account's jobs wait (a sentence naming the variable), or undefined when they may run. */
export async function heldBack(sql: Sql, config: KeyedConfig, now = new Date()): Promise<string | undefined> {
  const variable = keyVariable(config);
  const refusal = (await keyRefusals(sql)).find((r) => r.keyVariable === variable);
  if (!refusal) return undefined;
  const fingerprint = config.apiKey === undefined ? undefined : keyFingerprint(config.apiKey);
  const hold = keyHold(refusal, fingerprint, localDateTime(now, config.tz).date);
  return hold === "held" ? describeKeyHold(refusal, hold) : undefined;
}

/** After a job that called the registry: records its key's refusal, or forgets an older one. */
export async function noteKeyOutcome(
  sql: Sql,
  config: KeyedConfig,
  refused: KeyRefusedError | undefined,
  now = new Date(),
): Promise<void> {
  const variable = keyVariable(config);
  if (!refused || config.apiKey === undefined) {
    await clearKeyRefusal(sql, variable);
    return;
  }
  await recordKeyRefusal(sql, {
    keyVariable: variable,
    keyFingerprint: keyFingerprint(config.apiKey),
    refusedDay: localDateTime(now, config.tz).date,
    httpStatus: refused.refusal.status ?? null,
    endpoint: refused.refusal.endpoint,
    error: redactSecrets(refused.message),
  });
}
