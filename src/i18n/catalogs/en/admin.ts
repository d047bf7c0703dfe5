/** The inbox per change, the rules, users and list members pages (English). */
export const admin = {
  "inboxMsg.title": "Inbox",
  "inboxMsg.countOpen":
    "{count, plural, one {{shown} change with open alerts} other {{shown} changes with open alerts}}",
  "inboxMsg.countNew": "{shown} new since yesterday",
  "inboxMsg.countHigh": "{shown} of high severity",
  "inboxMsg.countBank":
    "{count, plural, one {{shown} bank-account change} other {{shown} bank-account changes}}",
  "inboxMsg.countMine": "{shown} assigned to me",
  "inboxMsg.severityHigh": "High",
  "inboxMsg.severityNormal": "Normal",
  "inboxMsg.severityHighWhy": "High: a bank account, a name, or a status to ceased or suspended changed.",
  "inboxMsg.rowSummary": "{alerts, plural, one {# alert} other {# alerts, one per matching rule}}",
  "inboxMsg.emptyNoRules":
    "The inbox is empty because no alert rule exists yet: nothing a sync stores can raise an alert. An admin adds one on the Rules page.",
  "inboxMsg.emptyNoRulesNotAdmin":
    "The inbox is empty because no alert rule exists yet: nothing a sync stores can raise an alert. Ask an admin to add one on the Rules page.",
  "inboxMsg.emptyAllPaused":
    "{count, plural, one {The inbox is empty and the one alert rule is paused: a paused rule raises nothing. An admin resumes it on the Rules page.} other {The inbox is empty and all # alert rules are paused: paused rules raise nothing. An admin resumes them on the Rules page.}}",
  "inboxMsg.emptyNothingNew":
    "Nothing is waiting for you: no change since the last run, which finished at {at}, matched a rule.",
  "inboxMsg.emptyNoRun":
    "Nothing is waiting for you: no sync has finished yet, so no change has been checked against the rules.",
  "inboxMsg.emptyFiltered": "No change matches these filters.",
  "inboxMsg.doneAck":
    "Done: {alerts, plural, one {# alert} other {# alerts}} of {changes, plural, one {# change} other {# changes}} acknowledged; {alerts, plural, one {the alert's history records it} other {each alert's history records it}}.",
  "inboxMsg.doneResolve":
    "Done: {alerts, plural, one {# alert} other {# alerts}} of {changes, plural, one {# change} other {# changes}} resolved; {alerts, plural, one {the alert's history records it} other {each alert's history records it}}.",
  "inboxMsg.doneSnooze":
    "Done: {alerts, plural, one {# alert} other {# alerts}} of {changes, plural, one {# change} other {# changes}} snoozed until {until}; {alerts, plural, one {the alert's history records it} other {each alert's history records it}}.",
  "inboxMsg.doneComment":
    "Done: your comment was added to {alerts, plural, one {# alert} other {# alerts}} of {changes, plural, one {# change} other {# changes}}.",
  "inboxMsg.doneAssign":
    "Done: {alerts, plural, one {# alert} other {# alerts}} of {changes, plural, one {# change} other {# changes}} assigned to {user}; {alerts, plural, one {the alert's history records it} other {each alert's history records it}}.",
  "inboxMsg.doneUnassign":
    "Done: {alerts, plural, one {# alert} other {# alerts}} of {changes, plural, one {# change} other {# changes}} {alerts, plural, one {is} other {are}} assigned to nobody now; {alerts, plural, one {the alert's history records it} other {each alert's history records it}}.",
  "inboxMsg.doneNothing": "Nothing changed: the selected alerts were in that state already.",
  "inboxMsg.assigneeOtherAccount":
    "{user} has not been given the account {account}, so its alerts cannot be assigned to them. Nothing was changed.",
  "inboxMsg.unknownAssignee": 'There is no console user named "{user}" to assign alerts to.',
  "inboxMsg.nothingSelected": "Select at least one change.",
  "rulesMsg.title": "Alert rules",
  "rulesMsg.ruleTitle": "Alert rule {name}",
  "rulesMsg.intro":
    "A rule says which changes raise an alert (lists, headings) and where the message goes. Every change to a rule is kept in its history.",
  "rulesMsg.readOnly": "You can read the rules; adding and changing them needs the admin role.",
  "rulesMsg.none":
    "No alert rule exists yet: add one below, and the next sync raises alerts for the changes it covers.",
  "rulesMsg.allLists": "Every list",
  "rulesMsg.allHeadings": "Every heading",
  "rulesMsg.active": "Active",
  "rulesMsg.paused": "Paused",
  "rulesMsg.doneAdded": "Rule {name} was added; the next sync raises alerts for the changes it covers.",
  "rulesMsg.doneEdited": "Rule {name} was changed; alerts raised before keep what they had.",
  "rulesMsg.donePaused": "Rule {name} is paused: it raises nothing until it is resumed.",
  "rulesMsg.doneResumed": "Rule {name} is active again; changes stored while it was paused raise nothing.",
  "rulesMsg.doneRemoved":
    "Rule {name} was removed: it raises nothing more, and its alerts and their history stay.",
  "rulesMsg.doneRemovedMessages":
    "Rule {name} was removed: it raises nothing more, {count, plural, one {the message not sent yet will not be sent} other {# messages not sent yet will not be sent}}, and its alerts and their history stay.",
  "rulesMsg.alreadyPaused": "Rule {name} was paused already; nothing changed.",
  "rulesMsg.alreadyActive": "Rule {name} was active already; nothing changed.",
  "rulesMsg.noteUnseen":
    "No stored change has named {headings} yet; the rule fires once the registry reports it.",
  "rulesMsg.noteNewKey":
    "The registry is not known to send {headings}; the rule fires only if the registry ever sends such a key.",
  "rulesMsg.noteConfig": "Note: {what}.",
  "rulesMsg.noSuchRule": 'There is no alert rule named "{name}".',
  "rulesMsg.refused": "The rule was not saved:",
  "rulesMsg.confirmRemove": "Tick the box to confirm that the rule is to be removed.",
  "rulesMsg.unknownState": "The action must be pause, resume or remove.",
  "usersMsg.title": "Users",
  "usersMsg.intro":
    "People who may sign in to this console, with what they may do: readers read, reviewers also act on alerts, admins also manage rules, lists and users. Nobody, admins included, ever sees a stored password.",
  "usersMsg.fleetIntro":
    "A user sees only the accounts given to them, with the same role in each; give and take accounts with regwatch users grant|revoke NAME --account ACCOUNT.",
  "usersMsg.added":
    "User {name} was added as {role}. Their password is shown below once: give it to them now, it cannot be shown again.",
  "usersMsg.reset":
    "The password of {name} was reset and their sessions have ended. The new password is shown below once: give it to them now, it cannot be shown again.",
  "usersMsg.passwordOnce": "Password for {name}, shown once:",
  "usersMsg.doneRole": "{name} is {role} now.",
  "usersMsg.doneRoleUnchanged": "{name} was {role} already; nothing changed.",
  "usersMsg.doneRemoved":
    "{name} was removed and their sessions have ended; what they did stays in the alerts' history.",
  "usersMsg.lastAdmin":
    "Nothing was changed: {name} is the last admin, and the console needs one. Make another user admin first.",
  "usersMsg.scopeIntro":
    "Listed are the users whose accounts you hold all of: those are the ones you manage, and you give only your own accounts. An admin who holds every account manages everyone.",
  "usersMsg.notYourUser":
    "Nothing was changed: {name} holds an account you do not hold, and an admin manages only users whose accounts they hold all of.",
  "usersMsg.notYourAccount": "Nothing was changed: you do not hold account {name}, so you cannot give it.",
  "usersMsg.noSuchUser": 'There is no user named "{name}".',
  "usersMsg.external":
    "Nothing was changed: {name} signs in through the company's identity provider, which holds their password; reset it there.",
  "usersMsg.taken": 'A user named "{name}" exists already; reset their password instead.',
  "usersMsg.badName":
    'The user name "{name}" must be 1 to 64 letters (accented ones too, as in kovács.éva), digits, ".", "_", "@" or "-".',
  "usersMsg.badRole": "The role must be reader, reviewer or admin.",
  "usersMsg.unknownAccount": 'There is no account named "{name}" in the accounts file.',
  "usersMsg.firstAdmin":
    "Nobody can sign in yet: this console has no users. Create the first admin on the server, where regwatch runs, with the command below (it reads the password from standard input); then sign in here.",
  "usersMsg.firstAdminCommand": "{command} users add NAME --role admin --password-stdin",
  "usersMsg.confirmRemove": "Tick the box to confirm that {name} is to be removed.",
  "listMsg.membersTitle": "List {name}",
  "listMsg.membersIntro":
    "The businesses this desired list should watch. Adding or removing one changes what regwatch wants; reconcile (the daemon's, the CLI's, or Apply now on the Lists page) carries it to the registry.",
  "listMsg.noMembers": "This desired list has no business yet.",
  "listMsg.noList": 'There is no desired list named "{name}".',
  "listMsg.readOnly": "Adding and removing businesses needs the admin role.",
  "listMsg.doneAdded": "{taxId} was added to {list}; the next reconcile adds it to the registry's list.",
  "listMsg.doneAddedNewList":
    "{taxId} was added to the new desired list {list}; the next reconcile creates the list (or adopts the items of a remote list of that name) and adds it.",
  "listMsg.doneAlready": "{taxId} was on {list} already; nothing changed.",
  "listMsg.doneRemoved":
    "{taxId} was removed from {list}; the next reconcile removes it from the registry's list if the list prunes.",
  "listMsg.doneNotThere": "{taxId} was not on {list}; nothing changed.",
  "listMsg.giveOne": "Give a tax number or a registration number, not both.",
  "listMsg.badListName": 'The list name "{name}" {problem}.',
  "listMsg.badTaxId": 'The tax number "{value}" {problem}.',
  "listMsg.noSearch":
    "A registration number is looked up through the registry's search interface, which this console is not configured for (REGWATCH_SEARCH_URL and its key); give the tax number instead.",
  "listMsg.applyTitle": "Apply now",
  "listMsg.applyIntro":
    "Reconcile normally runs from the daemon or the command line. Apply now sends the plan above to the registry at once, as one recorded run under the run lock.",
  "listMsg.applyConfirm": "I have read the plan above and want it sent to the registry now.",
  "listMsg.applyNeedsConfirm": "Tick the box to confirm the plan before it is applied; nothing was sent.",
  "listMsg.applyStale":
    "The plan has changed since this page was shown (someone edited a list, or a run read the registry): nothing was sent. Read the new plan and confirm it again.",
  "listMsg.applyLocked":
    "Another run holds the run lock right now (a sync, a reconcile or the daemon's work): nothing was sent. Try again when it has finished; the Runs page shows it.",
  "listMsg.applyNotConfigured":
    "This console cannot reach the registry's watch interface (REGWATCH_WATCH_URL and its key are not set): reconcile runs where they are set.",
  "listMsg.applyDone": "Reconcile run {run} finished: {status}.",
  "listMsg.nothingToApply": "The lists are in sync with what regwatch last read: there is nothing to apply.",
  "usersMsg.doneLanguage": "{name} reads the console in the language chosen now.",
  "usersAdmin.col.actions": "Actions",
  "usersAdmin.roleOf": "Role of {name}",
  "usersAdmin.languageOf": "Language of {name}",
  "usersAdmin.ofUser": "of {name}",
  "usersAdmin.changeRole": "Change role",
  "usersAdmin.changeLanguage": "Change language",
  "usersAdmin.resetPassword": "Reset password",
  "usersAdmin.confirmRemove": "yes, remove {name}",
  "usersAdmin.remove": "Remove",
  "usersAdmin.addTitle": "Add a user",
  "usersAdmin.nameRule":
    'Letters of the Latin alphabet, accented ones too (kovács.éva), digits, ".", "_", "@" and "-"; at most 64.',
  "usersAdmin.addHint": "A password is generated and shown once after the user is added.",
  "usersAdmin.someAccounts": "{names} and {more} more",
  "usersAdmin.allAccounts": "every account you hold ({count})",
  "usersAdmin.accountNames": "Accounts to give",
  "usersAdmin.accountNamesRule":
    "Type or paste account names, separated by commas, spaces or line breaks; the account switcher's search finds a name you do not remember.",
  "usersAdmin.add": "Add the user",
  "rulesPage.col.name": "Name",
  "rulesPage.col.state": "State",
  "rulesPage.col.channel": "Channel",
  "rulesPage.col.target": "Target",
  "rulesPage.col.lists": "Lists",
  "rulesPage.col.headings": "Headings",
  "rulesPage.col.digest": "Digest",
  "rulesPage.col.added": "Added",
  "rulesPage.col.when": "When",
  "rulesPage.col.who": "Who",
  "rulesPage.col.what": "What",
  "rulesPage.col.why": "Why",
  "rulesPage.yes": "yes",
  "rulesPage.no": "no",
  "rulesPage.pause": "Pause",
  "rulesPage.resume": "Resume",
  "rulesPage.editOrRemove": "Edit or remove",
  "rulesPage.addTitle": "Add a rule",
  "rulesPage.add": "Add the rule",
  "rulesPage.channelTo": "{channel} to {target}",
  "rulesPage.editTitle": "Edit",
  "rulesPage.save": "Save the rule",
  "rulesPage.stateTitle": "Pause, resume or remove",
  "rulesPage.why": "Why (kept in the rule's history)",
  "rulesPage.confirmRemove": "yes, remove this rule (its alerts and their history stay)",
  "rulesPage.history": "History",
  "rulesPage.targetLabel": "Target (webhook URL, e-mail addresses separated by commas, or a NOTIFY channel)",
  "rulesPage.listsLegend": "Lists (none ticked: every list)",
  "rulesPage.noLists": "No list is known yet.",
  "rulesPage.headingsLegend": "Headings (none ticked: every heading)",
  "rulesPage.otherHeadings": "Other headings, by name or key, separated by commas",
  "rulesPage.newHeading":
    "a heading key the registry may add later (typed as its key): the rule fires only if the registry ever sends this key",
  "rulesPage.digestLabel": "one message per run listing every alert (digest)",
  "listsAdmin.addTitle": "Add a business to a desired list",
  "listsAdmin.listLabel": "List (a desired list's name; a new name starts a new list)",
  "listsAdmin.taxId": "Tax number",
  "listsAdmin.orRegNumber": "or registration number",
  "listsAdmin.note": "Note (kept with the item)",
  "listsAdmin.noteCol": "Note",
  "listsAdmin.source": "Source",
  "listsAdmin.add": "Add",
  "listsAdmin.addHere": "Add a business",
  "listsAdmin.refusedTitle": "Nothing was changed",
  "inboxPage.severity": "Severity",
  "inboxPage.assignedToMe": "assigned to me",
  "inboxPage.newSinceYesterday": "new since yesterday",
  "inboxPage.action.assign": "assign to",
  "inboxPage.assignee": "assignee",
  "inboxPage.nobody": "nobody",
  "inboxPage.col.severity": "Severity",
  "inboxPage.col.rules": "Rules",
  "inboxPage.col.assigned": "Assigned",
  "inboxPage.selectChange": "select the change of {day} ({count, plural, one {# alert} other {# alerts}})",
  "inboxPage.pager": "page {page}, {count, plural, one {# change} other {# changes}}",
  "inbox.problem.severity": 'severity must be one of {allowed}; got "{value}"',
  "inbox.problem.flag": '{name} can only be "{on}"; got "{value}"',
  "itemOutcome.already": "was on the registry's list already (409)",
  "itemOutcome.alreadyGone": "was gone from the registry's list already (404)",
  "itemOutcome.refused": "the registry refused it ({code})",
  "itemOutcome.failed": "the request to the registry failed",
  "itemOutcome.reply": "What the registry said",
} as const;
