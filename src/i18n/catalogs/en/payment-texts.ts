/**
 * What a payment check says of a row (English): the sentences of a verdict's detail and its next
 * step in the console's words, said again from the codes payment_checks keeps (src/said.ts), and
 * the tax id and account problems. Values: {why} is a change file's reason in words, {statusWord}
 * and {headingWord} a status and heading as words, lists and days as the reader writes them;
 * `<name>Given` is yes/no for whether a value is there, `<name>Count` a list's length.
 */
const CONFIRM =
  "confirm the account with the supplier by phone on a number you already hold, not one from the invoice or from a letter announcing a new account";

export const paymentTexts = {
  "taxid.format": "tax id “{value}” must be exactly 8 digits",
  "taxid.checkDigit": "tax id “{value}” has a wrong check digit (expected {expected})",
  "taxid.foreign":
    "tax id “{value}” is a VAT number of another member state ({country}), not a Hungarian tax number",
  "account.firstGroup": "bank account “{raw}” has a wrong check digit in its first group (bank and branch)",
  "account.accountPart": "bank account “{raw}” has a wrong check digit in its account part",
  "account.foreignIban": "bank account “{raw}” is a foreign IBAN; only Hungarian accounts are checked",
  "account.ibanShape": "IBAN “{raw}” must be HU, two check digits and 24 digits",
  "account.ibanCheck": "IBAN “{raw}” has wrong check digits (mod 97)",
  "account.shape":
    "bank account “{raw}” must be 16 or 24 digits (groups of eight, hyphens optional) or a Hungarian IBAN",

  "pay.detail.holdersSeveral":
    "the file gives no tax number and the account is registered to several businesses: {holders}",
  "pay.detail.holdersFormer":
    "the file gives no tax number and no business holds the account now (it was registered to {holders})",
  "pay.detail.holderUnknown":
    "the file gives no tax number and no source regwatch has (search records, profiles, change values) knows who holds the account",
  "pay.detail.formerHolder": "the file gives no tax number; the account was registered to {holder}",
  "pay.detail.foundByAccount": "payee found by its account: {holder}",
  "pay.detail.statusUnread":
    "the business's status is not verified: it changed on {since} and regwatch could not read the change ({why}){status, select, none {} other {; the status known before it ({statusWord}) may no longer hold}}",
  "pay.detail.ceased": "the registry shows the business as ceased",
  "pay.detail.suspended": "the registry shows the business as suspended",
  "pay.detail.ceasedOn":
    "the registry shows the business as ceased (as of {day}, from {source, select, change_file {a change file} search {a search record} other {its profile}})",
  "pay.detail.suspendedOn":
    "the registry shows the business as suspended (as of {day}, from {source, select, change_file {a change file} search {a search record} other {its profile}})",
  "pay.detail.removed":
    "this business removed this account{dayGiven, select, yes { on {day}} other {}}: do not pay it; confirm the new account{accountsGiven, select, yes {; its registered account(s) now: {accounts}} other {}}",
  "pay.detail.registeredTo": "the account is registered to {holders}",
  "pay.detail.formerlyOwn": "the account was registered to this business before, but no longer is",
  "pay.detail.noAccounts": "the registry shows no bank account for this business",
  "pay.detail.registeredAccounts": "the business's registered account(s): {accounts}",
  "pay.detail.kindListsNoAccounts":
    "the registry lists no bank accounts for this kind of business (sole proprietor or similar)",
  "pay.detail.nameNotCompared": "the name could not be compared: the registry gives no name for the business",
  "pay.detail.nameUnread":
    "the file names the payee “{name}”, none of the names known of {taxId} ({names}); but its name changed on {since} and regwatch could not read that change ({why}), so the file's may be its new name",
  "pay.detail.nameMismatch": "the file names the payee “{name}”; the registry's names of {taxId}: {names}",
  "pay.detail.verified": "verified by {by} on {day}{noteGiven, select, yes { ({note})} other {}}",
  "pay.detail.verifiedBefore":
    "verified by {by} on {day}{noteGiven, select, yes { ({note})} other {}}, before the change of {change}",
  "pay.detail.added":
    "the account was added on {day}{source, select, search { (a search record read that day is the first to list it; the business's record before did not)} baseline { (a search record read that day is the first to list it; the business's record before did not)} profile { (the business profile as of that day is the first to list it; the business's record before did not)} other {}}, within the {holdDays}-day hold",
  "pay.detail.unverifiedChange":
    "the bank accounts change of {day} is not verified: {why}{hold, select, within { (within the {holdDays}-day hold)} other {; no search record read since, nor a later change, says which accounts hold}}",
  "pay.detail.unconfirmed":
    "no source regwatch has (search records, profiles, change values) has ever shown this account: nothing confirms it is the payee's",
  "pay.detail.unconfirmedAccepted":
    "warning: no source regwatch has (search records, profiles, change values) has ever shown this account: nothing confirms it is the payee's; passed because REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED is set",
  "pay.detail.unknownBusiness": "no record of tax id {taxId}",
  "pay.detail.notWatched": "on no watch list: a change of its account would go unseen",
  "pay.detail.amountCannotPay": "the amount “{written}” cannot be paid: {problem}",
  "pay.detail.amountEmpty": "the amount cell is empty",
  "pay.detail.amountUnreadable": "the amount “{written}” cannot be read",
  "pay.detail.amountZero": "the amount “{written}” is zero",
  "pay.detail.amountNegative": "the amount “{written}” is negative",
  "pay.detail.notCheckedOnline": "not checked online: {cause}{staleGiven, select, yes { ({stale})} other {}}",
  "pay.stale.noRecord": "no search record of the business is kept",
  "pay.stale.old":
    "its newest record was read on {day}, more than {days, plural, one {# day} other {# days}} ago",
  "pay.stale.accountsChange": "its bank accounts change of {day} is newer than its newest record",
  "pay.stale.unread":
    "its change of “{heading}” on {day} could not be read and is newer than its newest record",
  "pay.online.quotaSpent": "the monthly search quota is used up",
  "pay.online.searchFailed": "the search failed: {error}",
  "pay.detail.askedNoRecord":
    "asked online by registration number {value}, but the answer holds no record of this tax id{staleGiven, select, yes { ({stale})} other {}}",
  "pay.detail.searchFoundNone":
    "the registry's bank-account search (companies only) found no business holding it",

  "step.invalid_tax_id":
    "Correct the tax id from the supplier's master data (not the invoice) and check the batch again.",
  "step.invalid_account":
    "Correct the account number from a source you trust (not the invoice alone) and check the batch again.",
  "step.business_ceased":
    "Do not pay: the business has ceased. Ask the supplier, on contact details you already hold, who takes over its invoices.",
  "step.status_unverified":
    "{online, select, yes {Do not pay until the status is known: the online check could not read the business's current record; open the business's page and look it up, then press “Check again”, or ask the supplier on contact details you already hold.} other {Do not pay until the status is known: press “Check again” with “online” ticked, which reads the business's current record.}}",
  "step.account_removed": `Do not pay this account: the business removed it. Ask the supplier for its current account, ${CONFIRM}, write it in the file and check again.`,
  "step.name_unverified":
    "{online, select, yes {Do not pay until the name is known: the online check could not read the business's current record; open the business's page and look it up, then press “Check again”.} other {Do not pay until the name is known: press “Check again” with “online” ticked, which reads the business's current record.}}",
  "step.account_unconfirmed": `Before paying, ${CONFIRM}, then record it with the row's “Account confirmed” button. No source has shown this account, so nothing else releases it.`,
  "step.business_suspended": `Do not pay while the business is suspended; ${CONFIRM}, and press “Check again” with “online” ticked to read its current status.`,
  "step.account_not_registered": `Do not pay this account: ${CONFIRM}. If the supplier did change banks, press “Check again” with “online” ticked to read its current record.`,
  "step.account_recently_changed": `Before paying, ${CONFIRM}, then record it with the row's “Account confirmed” button.{dayGiven, select, yes { Without that, the check passes it from {day}.} other {}}`,
  "step.account_change_unverified": `The registry changed this business's accounts and regwatch does not know the new ones yet (the next scheduled sync may fetch them). Until then, ${CONFIRM} before paying{dayGiven, select, yes {; the check holds the payment until {day} has passed} other {}}, and record it with the row's “Account confirmed” button.`,
  "step.unknown_account_holder":
    "{online, select, yes {Ask the payee for their tax number (calling them on a number you already hold, not one from the invoice), add it to the file and check again.} other {Press “Check again” with “online” ticked to look the account up in the registry (companies only), or ask the payee for their tax number on a number you already hold and add it to the file.}}",
  "step.name_mismatch":
    "Do not pay until you know why the names differ: the invoice may name one company and the account belong to another. Check with the supplier on contact details you already hold; if it is only another spelling, write the registry's name in the file and check again.",
  "step.invalid_amount":
    "Fix the amount in the file (a positive number, as the invoice gives it) and check the batch again.",
  "step.unknown_business":
    "{online, select, yes {Nothing in the registry matched: check the tax id and account with the supplier on contact details you already hold.} other {Press “Check again” with “online” ticked to look the business up in the registry (one search per payee), or check the tax id with the supplier.}}",
  "step.not_watched":
    "Passes, but a change of its account would go unseen: ask an admin to add it to a watch list (the Lists page).",
} as const;
