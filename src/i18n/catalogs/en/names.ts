/** Names given to businesses, the header's search and "look it up" (English). */
export const names = {
  "name.given.fromFile": "{name} (as given in {file})",
  "name.given.fromUser": "{name} (as given by {user})",
  "name.given.earlier": "{name} (as given earlier; the source was not recorded)",

  "registrySearch.cost": "This search uses 1 of your {remaining} remaining monthly searches (of {limit}).",
  "registrySearch.spent": "The monthly search quota ({limit}) is used up: no search was sent.",
  "registrySearch.notConfigured":
    "The registry's search is not set up for this account (REGWATCH_SEARCH_URL and its key): only the names regwatch holds are searched.",
  "registrySearch.failed": "The registry's search failed: {why}",

  "find.title": "Find a business",
  "find.field": "Name, tax number or registration number",
  "find.submit": "Search",
  "find.empty": "Type a name (at least 3 letters), a tax number or a registration number.",
  "find.tooShort": "“{q}” is too short to search by name: type at least 3 letters.",
  "find.storedNone": "No business regwatch holds has a name or registration number matching “{q}”.",
  "find.storedSome": "Businesses regwatch holds matching “{q}”:",
  "find.registryNone": "The registry found no business for “{q}”.",
  "find.registrySome": "The registry's answer for “{q}” (kept for later):",
  "find.askRegistry": "Search the registry",
  "find.readerCannot": "A reviewer or admin can search the registry for more.",

  "lookup.heading": "Not looked up in the registry yet",
  "lookup.explain":
    "The registry has not been asked about this business, so its own name and record are not known here. The registry searches by registration number or name, not by tax number: give the one you know.",
  "lookup.field": "Registration number or name",
  "lookup.button": "Look it up",
  "lookup.readerNote": "A reviewer or admin can look this business up in the registry.",
  "lookup.missed":
    "The registry's answer for “{value}” holds no business with tax number {taxId}; {count, plural, one {its # record was} other {its # records were}} kept.",
  "lookup.badValue": "“{value}” is neither a registration number nor a name of at least 3 letters.",
  "unnamed.title": "Businesses without a name",
  "unnamed.none": "Every watched business has its name from the registry.",
  "unnamed.summary":
    "{total, plural, one {# watched business has} other {# watched businesses have}} no name from the registry yet; {searchable, plural, =0 {none of them can} one {# of them can} other {# of them can}} be looked up by what regwatch holds of it.",
  "unnamed.cost":
    "Looking them up uses {count, plural, one {# search} other {# searches}} of your {remaining} remaining this month (of {limit}), one for each business.",
  "unnamed.costPart":
    "One action looks up {count} of the {searchable}: {count, plural, one {# search} other {# searches}} of your {remaining} remaining this month (of {limit}).",
  "unnamed.button": "Look up {count, plural, one {# name} other {# names}}",
  "unnamed.readerNote": "A reviewer or admin can look these businesses up in the registry.",
  "unnamed.clueless":
    "{count, plural, one {# business has} other {# businesses have}} neither a registration number, nor an account from a payment batch, nor a given name: open its page and type its registration number or name.",
  "unnamed.more": "The first {shown} of {total} are listed.",
  "unnamed.col.taxId": "Tax number",
  "unnamed.col.clue": "Looked up by",
  "unnamed.clue.regNumber": "registration number {value}",
  "unnamed.clue.account": "bank account {value}",
  "unnamed.clue.name": "given name “{value}”",
  "unnamed.clue.none": "nothing known to search by",
  "unnamed.done.named":
    "{count, plural, =0 {No business got its name.} one {# business got its name.} other {# businesses got their names.}}",
  "unnamed.done.missed":
    "{count, plural, one {# business was} other {# businesses were}} not in the registry's answers.",
  "unnamed.done.leftQuota":
    "{count, plural, one {# business was} other {# businesses were}} not looked up: the monthly quota ran out.",
  "unnamed.done.leftFailed":
    "{count, plural, one {# business was} other {# businesses were}} not looked up: the registry's search failed ({why}).",
  "unnamed.done.remaining": "{remaining} of {limit} searches are left this month.",
  "unnamed.inboxLink": "Businesses without a name: look them up",
} as const;
