/**
 * The users page: whole sentences with `{placeholders}` (filled by fill-message.ts), from the
 * catalogs' `usersMsg.` keys in the reader's language.
 */
import { type MessageGroup, messageGroup } from "../../i18n/message-group.ts";
import type { Translator } from "../../i18n/messages.ts";

export type UsersMessages = MessageGroup<"usersMsg">;

export function usersMessages(i18n: Translator): UsersMessages {
  return messageGroup(i18n, "usersMsg");
}
