/**
 * How honest the emulator is about the world. By default it keeps the simple shape it always
 * had (one file per change, values drawn independently, a search record that never moves); each
 * switch here breaks one assumption a client could make about that shape, and `realistic`
 * turns them all on.
 */

export interface WorldOptions {
  /**
   * One change file per business form and day, shared by every business of that form with a
   * change that day (`<date>/<business_form>/changes.json`), entries in no particular order.
   */
  sharedFiles?: boolean;
  /**
   * Same-day changes of one heading chained across chapters (A→B, then B→C in `corrections`,
   * listed and named so that neither listing nor chapter order is event order), and a heading
   * listed twice in one change ([A→B, B→C]). Implies `valueHistory`.
   */
  sameDayChains?: boolean;
  /**
   * Values with a history: each change's old value is the new value of the previous change of
   * that heading, and a status never changes to itself.
   */
  valueHistory?: boolean;
  /** The search record shows the new values of each heading's latest change up to the clock. */
  currentRecords?: boolean;
  /** All of the above. */
  realistic?: boolean;
}

/** The switches in force, each resolved to a boolean. */
export interface World {
  sharedFiles: boolean;
  sameDayChains: boolean;
  valueHistory: boolean;
  currentRecords: boolean;
}

export const WORLD_SWITCHES = ["sharedFiles", "sameDayChains", "valueHistory", "currentRecords"] as const;

export function resolveWorld(options: WorldOptions): World {
  const all = options.realistic === true;
  const chains = all || options.sameDayChains === true;
  return {
    sharedFiles: all || options.sharedFiles === true,
    sameDayChains: chains,
    // A chain links the old value of one change to the new value of another: that is a history.
    valueHistory: chains || all || options.valueHistory === true,
    currentRecords: all || options.currentRecords === true,
  };
}

/** Whether changes come from the newer generator (one change per chapter and day, episodes...). */
export function usesWorldlyChanges(world: World): boolean {
  return world.sharedFiles || world.sameDayChains || world.valueHistory;
}

/** Every problem of the switches, each naming the option. */
export function worldOptionProblems(options: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const name of [...WORLD_SWITCHES, "realistic"]) {
    const value = options[name];
    if (value !== undefined && typeof value !== "boolean") problems.push(`${name} must be a boolean`);
  }
  return problems;
}
