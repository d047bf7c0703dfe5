/**
 * What the console page tests share: a database filled by a real sync against the emulator
 * (two lists, changes with values, an alert rule that raises alerts), the console started on it,
 * and a reader signed in over HTTP.
 */
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { createUser, type SignedIn, signIn, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";

/** The emulator's morning: 2024-03-09 is the last complete day. */
export const MORNING = "2024-03-10T08:00:00+01:00";

export interface PagesWorld {
  emulator: RunningEmulator;
  t: TestDatabase;
  web: TestConsole;
  reader: SignedIn;
  /** The watched tax ids, on list "suppliers" (first 20) and "customers" (last 20). */
  taxIds: string[];
  close(): Promise<void>;
}

export async function startPagesWorld(options: { seed?: number } = {}): Promise<PagesWorld> {
  const emulator = await startEmulator({
    seed: options.seed ?? 11,
    businesses: 600,
    now: MORNING,
    frozenClock: true,
    rateLimit: 200,
    realistic: true,
  });
  const taxIds = sampleTaxIds(emulator, 30);
  await seedList(emulator, { name: "suppliers", createdAt: "2024-01-15", taxIds: taxIds.slice(0, 20) });
  await seedList(emulator, { name: "customers", createdAt: "2024-02-20", taxIds: taxIds.slice(10, 30) });
  const t = await createTestDatabase();
  await insertAlertRule(t.db.sql, {
    name: "every change",
    lists: [],
    headings: [],
    channel: "notify",
    target: "regwatch_alerts",
    digest: false,
  });
  const result = await syncAt(t.db.sql, emulatorConfig(emulator), emulator);
  if (result.error) throw result.error;
  const web = await startTestConsole(t.db, { now: new Date(MORNING) });
  await createUser(t.db, "rita", "reader");
  const reader = await signIn(web.url, "rita");
  return {
    emulator,
    t,
    web,
    reader,
    taxIds,
    async close() {
      await web.close();
      await t.drop();
      await emulator.close();
    },
  };
}
