/**
 * The lists pages' words for what admins do there: whole sentences with `{placeholders}` (filled by fill-message.ts), from the
 * catalogs' `listMsg.` keys in the reader's language.
 */
import { type MessageGroup, messageGroup } from "../../i18n/message-group.ts";
import type { Translator } from "../../i18n/messages.ts";

export type ListMembersMessages = MessageGroup<"listMsg">;

export function listMembersMessages(i18n: Translator): ListMembersMessages {
  return messageGroup(i18n, "listMsg");
}
