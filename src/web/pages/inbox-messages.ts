/**
 * The inbox's words, each a whole sentence with `{placeholders}` (filled by fill-message.ts), kept
 * together so that they can move into the translation catalogs as they are.
 */
export const INBOX_MESSAGES = {
  title: "Inbox",
  countOpen: "{count} changes with open alerts",
  countNew: "{count} new since yesterday",
  countHigh: "{count} of high severity",
  countBank: "{count} bank-account changes",
  countMine: "{count} assigned to me",
  severityHigh: "High",
  severityNormal: "Normal",
  severityHighWhy: "High: a bank account, a name, or a status to ceased or suspended changed.",
  rowSummary: "{alerts} alerts, one per matching rule",
  emptyNoRules:
    "The inbox is empty because no alert rule exists yet: nothing a sync stores can raise an alert. An admin adds one on the Rules page.",
  emptyNoRulesNotAdmin:
    "The inbox is empty because no alert rule exists yet: nothing a sync stores can raise an alert. Ask an admin to add one on the Rules page.",
  emptyAllPaused:
    "The inbox is empty and every alert rule ({count}) is paused: paused rules raise nothing. An admin resumes them on the Rules page.",
  emptyNothingNew:
    "Nothing is waiting for you: no change since the last run, which finished at {at}, matched a rule.",
  emptyNoRun:
    "Nothing is waiting for you: no sync has finished yet, so no change has been checked against the rules.",
  emptyFiltered: "No change matches these filters.",
  doneAck: "Done: {alerts} alerts of {changes} changes acknowledged; each alert's history records it.",
  doneResolve: "Done: {alerts} alerts of {changes} changes resolved; each alert's history records it.",
  doneSnooze:
    "Done: {alerts} alerts of {changes} changes snoozed until {until}; each alert's history records it.",
  doneComment: "Done: your comment was added to {alerts} alerts of {changes} changes.",
  doneAssign:
    "Done: {alerts} alerts of {changes} changes assigned to {user}; each alert's history records it.",
  doneUnassign:
    "Done: {alerts} alerts of {changes} changes are assigned to nobody now; each alert's history records it.",
  doneNothing: "Nothing changed: the selected alerts were in that state already.",
  unknownAssignee: 'There is no console user named "{user}" to assign alerts to.',
  nothingSelected: "Select at least one change.",
} as const;
