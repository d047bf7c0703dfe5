/**
 * The arguments of `regwatch watch ...`, checked by the rules reconcile applies to desired rows
 * (desired-names.ts), and how the commands name a list on a terminal.
 */
import { checkRegistrationNumber } from "../api/search-query.ts";
import { LIST_NAME_MAX, listNameProblem, readDesiredTaxId } from "../desired-names.ts";
import { UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { describeTaxIdProblem } from "../taxid.ts";
import { listLabel, type NamedList } from "./list-arg.ts";

/** A list name as typed: blanks around it go; anything else reconcile would refuse is refused here. */
export function checkListName(raw: string): string {
  const name = raw.trim();
  const problem = listNameProblem(name);
  if (problem) {
    throw new UsageError(
      `list name "${terminalSafe(raw)}" ${problem}: it must be 1 to ${LIST_NAME_MAX} printable characters`,
    );
  }
  return name;
}

/**
 * A tax base number, or a full tax number reduced to its base, with its check digit verified:
 * the rules reconcile applies to desired_items rows (desired-names.ts), plus the check digit.
 */
export function checkTaxIdArg(raw: string): string {
  const reading = readDesiredTaxId(raw);
  if (!reading.ok) throw new UsageError(`tax id "${terminalSafe(raw)}" ${reading.problem}`);
  const problem = describeTaxIdProblem(reading.taxId);
  if (problem) throw new UsageError(problem);
  return reading.taxId;
}

/** Said when a command starts a desired list; one that exists remotely has its items adopted. */
export function newListNote(created: boolean, list: NamedList): string {
  if (!created) return "";
  return list.key
    ? " (new desired list; the next reconcile adopts the items already on the remote list, removing none)"
    : " (new desired list)";
}

/** A list's label for the terminal: its name is checked, but its key comes from the registry. */
export function safeLabel(list: NamedList): string {
  return terminalSafe(listLabel(list));
}

export function checkRegNumberArg(raw: string): string {
  const checked = checkRegistrationNumber(raw);
  if (!checked.ok) throw new UsageError(checked.problem);
  return checked.value;
}
