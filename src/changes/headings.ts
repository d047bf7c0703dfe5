/**
 * The headings the registry is known to send in a change's `changed_headings` (pure): the spec's
 * samples (long_name, bank_accounts) and the register extract's other headings the twin sends.
 * The spec does not show the complete set, so a heading the registry adds later is named by its key
 * in the registry's own form: small letters, digits and `_`.
 */

export const REGISTRY_HEADINGS: readonly string[] = [
  "long_name",
  "short_name",
  "address",
  "status",
  "representatives",
  "bank_accounts",
  "main_activities",
];

const KEY = /^[a-z][a-z0-9_]{0,63}$/;

/** Whether `text` has the form of a registry heading key (`bank_accounts`, `founded_at`). */
export function isHeadingKey(text: string): boolean {
  return KEY.test(text);
}

export function isRegistryHeading(heading: string): boolean {
  return REGISTRY_HEADINGS.includes(heading);
}
