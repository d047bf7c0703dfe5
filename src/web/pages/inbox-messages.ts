/**
 * The inbox's words, each a whole sentence with `{placeholders}` (filled by fill-message.ts), from
 * the catalogs' `inboxMsg.` keys in the reader's language.
 */
import { type MessageGroup, messageGroup } from "../../i18n/message-group.ts";
import type { Translator } from "../../i18n/messages.ts";

export type InboxMessages = MessageGroup<"inboxMsg">;

export function inboxMessages(i18n: Translator): InboxMessages {
  return messageGroup(i18n, "inboxMsg");
}
