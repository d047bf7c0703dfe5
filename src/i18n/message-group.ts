/**
 * A page area's messages as one object (`m.title`, `m.doneAck`), read from the catalog of the
 * reader's language by a key prefix (`inboxMsg.`): for templates that hand sentences to the
 * page's `fill` with values that are markup (`<strong>3</strong>`). The messages are ICU sentences
 * with simple `{name}` placeholders only, so filling them is the same as formatting them.
 */
import { CATALOGS, type MessageKey } from "./catalogs/index.ts";
import type { Translator } from "./messages.ts";

export type MessageGroup<P extends string> = {
  [K in MessageKey as K extends `${P}.${infer S}` ? S : never]: string;
};

export function messageGroup<P extends string>(i18n: Translator, prefix: P): MessageGroup<P> {
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(CATALOGS[i18n.locale])) {
    if (key.startsWith(`${prefix}.`)) out[key.slice(prefix.length + 1)] = text;
  }
  return out as MessageGroup<P>;
}
