/**
 * The lists pages' words for what admins do there, each a whole sentence with `{placeholders}`
 * (fill-message.ts), kept together so that they can move into the translation catalogs as they are.
 */
export const LIST_MEMBERS_MESSAGES = {
  membersTitle: "List {name}",
  membersIntro:
    "The businesses this desired list should watch. Adding or removing one changes what regwatch wants; reconcile (the daemon's, the CLI's, or Apply now on the Lists page) carries it to the registry.",
  noMembers: "This desired list has no business yet.",
  noList: 'There is no desired list named "{name}".',
  readOnly: "Adding and removing businesses needs the admin role.",
  doneAdded: "{taxId} was added to {list}; the next reconcile adds it to the registry's list.",
  doneAddedNewList:
    "{taxId} was added to the new desired list {list}; the next reconcile creates the list (or adopts the items of a remote list of that name) and adds it.",
  doneAlready: "{taxId} was on {list} already; nothing changed.",
  doneRemoved:
    "{taxId} was removed from {list}; the next reconcile removes it from the registry's list if the list prunes.",
  doneNotThere: "{taxId} was not on {list}; nothing changed.",
  giveOne: "Give a tax number or a registration number, not both.",
  badListName: 'The list name "{name}" {problem}.',
  badTaxId: 'The tax number "{value}" {problem}.',
  noSearch:
    "A registration number is looked up through the registry's search interface, which this console is not configured for (REGWATCH_SEARCH_URL and its key); give the tax number instead.",
  applyTitle: "Apply now",
  applyIntro:
    "Reconcile normally runs from the daemon or the command line. Apply now sends the plan above to the registry at once, as one recorded run under the run lock.",
  applyConfirm: "I have read the plan above and want it sent to the registry now.",
  applyNeedsConfirm: "Tick the box to confirm the plan before it is applied; nothing was sent.",
  applyStale:
    "The plan has changed since this page was shown (someone edited a list, or a run read the registry): nothing was sent. Read the new plan and confirm it again.",
  applyLocked:
    "Another run holds the run lock right now (a sync, a reconcile or the daemon's work): nothing was sent. Try again when it has finished; the Runs page shows it.",
  applyNotConfigured:
    "This console cannot reach the registry's watch interface (REGWATCH_WATCH_URL and its key are not set): reconcile runs where they are set.",
  applyDone: "Reconcile run {run} finished: {status}.",
  nothingToApply: "The lists are in sync with what regwatch last read: there is nothing to apply.",
} as const;
