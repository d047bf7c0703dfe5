/**
 * Commander's parsers of the option and argument values several commands take. Apart from
 * context.ts, which `regwatch status` loads without commander (src/cli-status.ts).
 */
import { InvalidArgumentError } from "commander";
import { isValidDate } from "../dates.ts";

/** Commander parser for YYYY-MM-DD arguments; a bad value is a usage error naming it. */
export function parseDateArg(value: string): string {
  if (!isValidDate(value)) throw new InvalidArgumentError(`"${value}" is not a real date as YYYY-MM-DD.`);
  return value;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError(`"${value}" is not a positive integer.`);
  }
  return n;
}

export function parseNonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError(`"${value}" is not a whole number.`);
  return n;
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
