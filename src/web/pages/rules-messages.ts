/**
 * The rules page: whole sentences with `{placeholders}` (filled by fill-message.ts), from the
 * catalogs' `rulesMsg.` keys in the reader's language.
 */
import { type MessageGroup, messageGroup } from "../../i18n/message-group.ts";
import type { Translator } from "../../i18n/messages.ts";

export type RulesMessages = MessageGroup<"rulesMsg">;

export function rulesMessages(i18n: Translator): RulesMessages {
  return messageGroup(i18n, "rulesMsg");
}
