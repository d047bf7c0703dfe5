/**
 * The retention variables' documentation (docs/configuration.md, via src/config-docs.ts): how long
 * each kind of personal data is kept. The README's "Personal data and retention" says why each default.
 */
const DAYS = "1 to 36500 (days)";

export const RETENTION_DOCS = {
  REGWATCH_RETAIN_REPRESENTATIVES_DAYS: {
    group: "retention" as const,
    takes: DAYS,
    text: "A representative's name is replaced by the removal marker this many days after it stopped being current (in `change_values`), and in the records and profiles of businesses no longer watched whose representatives were last read that long ago.",
  },
  REGWATCH_RETAIN_SOLE_PROPRIETORS_DAYS: {
    group: "retention" as const,
    takes: DAYS,
    text: "A sole proprietor's (`self_employed`) search record and profile, when no list watches or wants the business and the record was last read this many days ago: its name and address are replaced by the removal marker; the tax id, type, status and bank accounts stay.",
  },
  REGWATCH_RETAIN_CHANGE_BODIES_DAYS: {
    group: "retention" as const,
    takes: DAYS,
    text: "A stored change-file body is removed this many days after it was fetched, once it was parsed (its values stay in `change_values`); a body not parsed is kept, for `reparse`.",
  },
  REGWATCH_RETAIN_PAYMENT_ROWS_DAYS: {
    group: "retention" as const,
    takes: DAYS,
    text: "Recorded payment batches and their rows (`payment_batches`, `payment_checks`) are deleted this many days after the check.",
  },
  REGWATCH_RETAIN_PAYMENT_FILES_DAYS: {
    group: "retention" as const,
    takes: DAYS,
    text: "Uploaded payment files held for a column choice (`held_uploads`) are deleted this many days after the upload.",
  },
  REGWATCH_RETAIN_ALERT_REPLIES_DAYS: {
    group: "retention" as const,
    takes: DAYS,
    text: "What an alert target answered (`alert_deliveries.last_reply`) is replaced by the removal marker this many days after the last attempt of a message sent or given up.",
  },
  REGWATCH_RETAIN_SIGN_INS_DAYS: {
    group: "retention" as const,
    takes: DAYS,
    text: "Console sign-in records (failed sign-ins, addresses seen, ended sessions) are deleted this many days after they were last used.",
  },
  REGWATCH_RETENTION_BATCH: {
    group: "retention" as const,
    takes: "1 to 100000",
    text: "Rows one retention transaction changes; each batch is committed before the next.",
  },
} as const;
