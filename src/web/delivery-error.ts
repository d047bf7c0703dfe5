/**
 * A delivery's last error as a reader's sentence, pure: the outbox keeps what the SMTP server or
 * the webhook said (in their words, usually English); the page says in the reader's language
 * what happened and shows the server's own reply apart, as it was.
 */
import type { MessageKey, Translator } from "../i18n/messages.ts";

const SAID: [RegExp, MessageKey][] = [
  [/failed inside regwatch/, "deliveryError.internal"],
  [/^SMTP server answered (\d{3})/, "deliveryError.smtpAnswered"],
  [/^SMTP server not reachable/, "deliveryError.smtpUnreachable"],
  [/^SMTP transfer aborted/, "deliveryError.timedOut"],
  [/^webhook answered HTTP (\d{3})/, "deliveryError.webhookAnswered"],
  [/^no answer from the webhook/, "deliveryError.webhookSilent"],
];

/** The sentence for a stored error; null when there is none. */
export function deliveryErrorWords(i18n: Translator, error: string | null | undefined): string | null {
  if (!error) return null;
  for (const [pattern, key] of SAID) {
    const m = pattern.exec(error);
    if (m) return i18n.t(key, { code: m[1] ?? "" });
  }
  return i18n.t("deliveryError.other");
}
