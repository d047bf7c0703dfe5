/** Reading heading values whose shape the registry does not document, tolerantly. */

/** The accounts of a bank_accounts value (objects with bank_account, or strings), or null when it is not one. */
export function bankAccountsOf(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const accounts: string[] = [];
  for (const item of value) {
    if (
      typeof item === "object" &&
      item !== null &&
      typeof (item as { bank_account?: unknown }).bank_account === "string"
    ) {
      accounts.push((item as { bank_account: string }).bank_account);
    } else return null;
  }
  return accounts;
}
