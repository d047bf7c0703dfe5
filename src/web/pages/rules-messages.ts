/**
 * The rules page's words, each a whole sentence with `{placeholders}` (fill-message.ts), kept
 * together so that they can move into the translation catalogs as they are.
 */
export const RULES_MESSAGES = {
  title: "Alert rules",
  ruleTitle: "Alert rule {name}",
  intro:
    "A rule says which changes raise an alert (lists, headings) and where the message goes. Every change to a rule is kept in its history.",
  readOnly: "You can read the rules; adding and changing them needs the admin role.",
  none: "No alert rule exists yet: add one below, and the next sync raises alerts for the changes it covers.",
  allLists: "Every list",
  allHeadings: "Every heading",
  active: "Active",
  paused: "Paused",
  doneAdded: "Rule {name} was added; the next sync raises alerts for the changes it covers.",
  doneEdited: "Rule {name} was changed; alerts raised before keep what they had.",
  donePaused: "Rule {name} is paused: it raises nothing until it is resumed.",
  doneResumed: "Rule {name} is active again; changes stored while it was paused raise nothing.",
  doneRemoved: "Rule {name} was removed: it raises nothing more, and its alerts and their history stay.",
  doneRemovedMessages:
    "Rule {name} was removed: it raises nothing more, {count} messages not sent yet will not be sent, and its alerts and their history stay.",
  alreadyPaused: "Rule {name} was paused already; nothing changed.",
  alreadyActive: "Rule {name} was active already; nothing changed.",
  noteUnseen: "No stored change has named {headings} yet; the rule fires once the registry reports it.",
  noteConfig: "Note: {what}.",
  noSuchRule: 'There is no alert rule named "{name}".',
  refused: "The rule was not saved:",
  confirmRemove: "Tick the box to confirm that the rule is to be removed.",
  unknownState: "The action must be pause, resume or remove.",
} as const;
