/**
 * Validation shared by the CLI and the console (English): rules, list members, registration
 * numbers and names searched, as the console says them (form fields, not command-line flags).
 * The codes and values are made where the check is (src/said.ts); the CLI keeps its own English.
 */
export const validation = {
  "search.badRegNumber":
    "registration number “{raw}” matches none of the formats {shapes} (x, y, z are digits)",
  "search.shortName": "name “{raw}” is too short: give at least {min} characters",
  "search.badAccount":
    "bank account “{raw}” must be xxxxxxxx-xxxxxxxx-xxxxxxxx or its first 17 characters xxxxxxxx-xxxxxxxx (x are digits)",
  "names.hidden": "holds a control or invisible character ({character})",
  "names.empty": "is empty",
  "names.blanks": "has blanks before or after it",
  "names.tooLong": "is longer than {max} characters",
  "names.otherDigits": "holds digits other than 0-9",
  "names.taxIdShape": "is neither a tax base number (8 digits) nor a tax number (xxxxxxxx-y-zz)",
  "names.foreignTaxId": "is a VAT number of another member state ({country}), not a Hungarian tax number",
  "resolve.notFound": "registration number {regNumber} was not found in the registry",
  "resolve.budgetOrg":
    "registration number {regNumber} belongs to a budget organisation, which the watch service does not cover",
  "resolve.noTaxNumber": "the registry returned no usable tax number for registration number {regNumber}",
  "resolve.several":
    "registration number {regNumber} matches several businesses ({taxIds}): give the tax number instead",
  "resolve.quota":
    "{limit, plural, one {the one search request allowed this month is used up} other {all # search requests allowed this month are used up}}: give the tax number instead",
  "resolve.failed": "searching {regNumber} failed: {why}",
  "rule.emptyName": "Name: give the rule a name",
  "rule.longName": "Name: at most {max} characters",
  "rule.badChannel": "Channel: “{channel}” must be {allowed}",
  "rule.blankScope": "Lists and headings must not be empty",
  "rule.targetNotUrl": "Target: “{target}” is not a web address (a webhook needs http:// or https://)",
  "rule.targetNotHttp": "Target: “{target}” must be an http:// or https:// address",
  "rule.targetNotEmail":
    "Target: {addressesCount, plural, one {not an e-mail address} other {not e-mail addresses}}: {addresses}",
  "rule.privateTarget":
    "Target: “{target}” is a loopback, link-local, private or multicast address; alert targets must be outside addresses unless {setting}=true",
  "rule.targetNotChannel": "Target: “{target}” must be a Postgres NOTIFY channel name of 1 to 63 bytes",
  "rule.unknownList":
    "{lists}: no such list, on the registry (by key or name) or desired (known: {knownGiven, select, yes {{known}{more, plural, =0 {} other { and # more}}} other {none yet}})",
  "rule.unknownListHint":
    "{lists}: no such list, on the registry (by key or name) or desired (known: {knownGiven, select, yes {{known}{more, plural, =0 {} other { and # more}}} other {none yet}}); the registry's lists could not be read ({why}): once the registry is reachable and a sync has read its lists, add the rule again",
  "rule.listsUnread":
    "the registry's lists could not be read ({why}): once the registry is reachable and a sync has read its lists, add the rule again",
  "rule.unseenHeading":
    "{headings}: no stored change has named this heading and the registry is not known to send it (it sends {knownHeadings}); check the spelling, or tick “a heading key the registry may add later”",
  "rule.notHeading":
    "{names}: neither the name of a heading nor a heading key; the registry sends {knownHeadings}. A heading it may add later is given by its key (small letters, digits and _, such as founded_at) with “a heading key the registry may add later” ticked",
  "rule.noSuchRule": "no alert rule is named “{name}”",
  "rule.exists": "an alert rule named “{name}” exists already",
  "rule.noWebhookSecret": "REGWATCH_WEBHOOK_SECRET is not set; webhook messages wait until it is",
  "rule.noSmtp": "REGWATCH_SMTP_URL and REGWATCH_MAIL_FROM are needed to send e-mail",
  "guard.maxRemovals":
    "the plan removes {removals, plural, one {# item} other {# items}}{deleted, plural, =0 {} other { (# of them by deleting {lists, plural, one {# dropped list} other {# dropped lists}})}}, more than the {max} a run removes unasked; check the desired items: applying it needs reconcile with --max-removals",
  "plan.duplicateRemote":
    "list “{list}” exists {times} times at the registry; the oldest, {used}, is the one kept in step, and {left} {leftCount, plural, one {is} other {are}} left untouched",
  "guard.emptied":
    "the plan removes all {count, plural, one {# item} other {# items}} of list “{list}” and leaves it empty: applying it needs reconcile with --allow-empty (or prune = false on the desired list keeps them)",
} as const;
