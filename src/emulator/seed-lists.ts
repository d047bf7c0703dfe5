/**
 * Checking the lists an emulator starts with (`--lists`, or a tenant's `lists`) before any is
 * created, so a bad entry is named by its place and name rather than failing half-way.
 */
import { isValidDate } from "../dates.ts";

const SEED_LIST_FIELDS = ["name", "createdAt", "taxIds", "size", "addedAt"];

/** Every problem of every entry, each naming the entry as `where[i]` and its name when it has one. */
export function seedListProblems(lists: unknown, where: string): string[] {
  if (lists === undefined) return [];
  if (!Array.isArray(lists)) return [`${where} must be an array of lists`];
  const problems: string[] = [];
  lists.forEach((entry: unknown, i) => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      problems.push(
        `${where}[${i}] must be an object like {"name":"suppliers","createdAt":"2026-01-05","size":20}`,
      );
      return;
    }
    const e = entry as Record<string, unknown>;
    const label =
      typeof e.name === "string" && e.name !== ""
        ? `${where}[${i}] (${JSON.stringify(e.name)})`
        : `${where}[${i}]`;
    if (typeof e.name !== "string" || e.name === "") problems.push(`${label} needs a name`);
    for (const field of ["createdAt", "addedAt"] as const) {
      const value = e[field];
      if (value === undefined && field === "addedAt") continue;
      if (typeof value !== "string" || !isSeedDate(value))
        problems.push(
          value === undefined
            ? `${label} needs ${field} (YYYY-MM-DD or an ISO instant)`
            : `${label}.${field} must be YYYY-MM-DD or an ISO instant`,
        );
    }
    if (e.taxIds !== undefined && (!Array.isArray(e.taxIds) || e.taxIds.some((t) => typeof t !== "string")))
      problems.push(`${label}.taxIds must be an array of tax ids`);
    if (e.size !== undefined && (!Number.isInteger(e.size) || (e.size as number) < 0))
      problems.push(`${label}.size must be a whole number, 0 or more`);
    for (const k of Object.keys(e).filter((k) => !SEED_LIST_FIELDS.includes(k)))
      problems.push(`${label} has an unknown field ${k}`);
  });
  return problems;
}

function isSeedDate(value: string): boolean {
  if (isValidDate(value)) return true;
  return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
}
