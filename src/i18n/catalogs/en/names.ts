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
} as const;
