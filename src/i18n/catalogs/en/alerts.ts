/** The text of alert e-mails and webhook `text` lines (English), in REGWATCH_LOCALE. */
export const alerts = {
  "mail.test.webhookMessage": "Test message from regwatch: no business changed.",
  "mail.test.webhookText": "[regwatch TEST] rule {rule}: {message}",
  "mail.test.text":
    'TEST MESSAGE from regwatch for rule "{rule}". No business changed; this checks the delivery path.',
  "mail.test.subject": "[regwatch TEST] rule {rule}",
  "mail.business": "{name} ({taxId})",
  "mail.ambiguous":
    "several values of {heading} on {day} in no known order: the new value may not be the current one",
  "mail.changeLine": "{business} on {day}: {changes}",
  "mail.notParsed": "{heading}: changed (values not parsed yet)",
  "mail.notParsedCell": "changed (values not parsed yet)",
  "mail.webhook.one": "regwatch (rule {rule}): {change}",
  "mail.webhook.aChange": "a change",
  "mail.webhook.digest": "regwatch (rule {rule}): {count, plural, one {# change} other {# changes}}",
  "mail.subject.digest": "[regwatch] {count, plural, one {# change} other {# changes}} for rule {rule}",
  "mail.subject.one": "[regwatch] {business} changed (rule {rule})",
  "mail.aBusiness": "a business",
  "mail.alertLine": "Alert {id}: {business}, change of {day}, lists: {lists}",
  "mail.htmlAlert": "Alert {id}: {business}",
  "mail.htmlChange": "Change of {day}; lists: {lists}",
  "mail.htmlRule": "Rule {rule}",
  "mail.col.heading": "heading",
  "mail.col.old": "old",
  "mail.col.new": "new",
  "mail.nameHint":
    "(name unknown): no search record or change has named the business yet; `regwatch lookup` finds it by registration number, name or bank account and stores the name for the next messages",
} as const;
