/**
 * The console says, in its reader's language, that alert messages are not going out and why: on
 * the inbox, an alert's page and the rules page, while delivery passes fail (here every webhook
 * send throws inside regwatch: a secret the signing library cannot decode), and not once a pass
 * delivers again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { silentLogger } from "../../src/logger.ts";
import {
  alertConfig,
  type Receiver,
  ruleForEveryChange,
  startReceiver,
  storeRun,
} from "../alerts/harness.ts";
import { createUser, type SignedIn, signIn, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
let web: TestConsole;
let receiver: Receiver;
let reader: SignedIn;
let reviewer: SignedIn;
let alertId: number;

/** A pass with every pending message due (as `alerts deliver` does). */
const deliver = (webhookSecret?: string) =>
  deliverAlerts(
    { sql: t.db.sql, config: alertConfig(webhookSecret ? { webhookSecret } : {}), log: silentLogger },
    { ignoreBackoff: true },
  );
const page = async (path: string, who: SignedIn, language?: string) => {
  const answer = await fetch(`${web.url}${path}`, {
    redirect: "manual",
    headers: { cookie: who.cookie, ...(language ? { "accept-language": language } : {}) },
  });
  expect(answer.status).toBe(200);
  return answer.text();
};

beforeAll(async () => {
  t = await createTestDatabase();
  receiver = await startReceiver();
  web = await startTestConsole(t.db);
  await createUser(t.db, "rita", "reader");
  await createUser(t.db, "viktor", "reviewer");
  await ruleForEveryChange(t.db.sql, receiver.url);
  await storeRun(t.db.sql, "sync", [
    { taxId: "50000001", date: "2026-11-20", headings: ["seat"], lists: ["suppliers"] },
  ]);
  expect(await deliver("whsec_abc")).toMatchObject({ unexpected: 1 });
  const [alert] = await t.db.sql<{ id: number }[]>`select id::int from regwatch.alerts`;
  alertId = alert!.id;
  reader = await signIn(web.url, "rita");
  reviewer = await signIn(web.url, "viktor");
});
afterAll(async () => {
  await web?.close();
  await receiver?.close();
  await t?.drop();
});

describe("alert delivery failing, in the console", () => {
  it("is said on the inbox, an alert's page and the rules page, with the error and what waits", async () => {
    for (const html of [
      await page("/", reader),
      await page(`/alerts/${alertId}`, reader),
      await page("/rules", reviewer),
    ]) {
      expect(html).toContain('<section class="problems delivery-failing" role="alert">');
      expect(html).toContain("Alert messages are not going out.");
      expect(html).toMatch(/The last delivery pass failed; the last at [^<]+\./);
      // The error in words; regwatch's own record of it kept apart, as it was (issue 49).
      expect(html).toContain("Sending failed inside regwatch, not at the receiver.");
      expect(html).toContain(
        "<code>the webhook send failed inside regwatch, not at the receiver: Base64Coder: incorrect padding</code>",
      );
      expect(html).toMatch(/1 message is waiting, queued [^<]+\./);
      expect(html).not.toContain("whsec_abc");
    }
    const magyar = await page("/", reader, "hu-HU");
    expect(magyar).toContain("Az értesítések nem mennek ki.");
    expect(magyar).toMatch(/Az utolsó kézbesítési kör sikertelen volt; legutóbb: [^<]+\./);
    expect(magyar).toContain("A küldés a regwatch-on belül hiúsult meg, nem a fogadónál.");
    expect(magyar).toMatch(/1 értesítés vár kiküldésre, sorba került: [^<]+\./);
  });

  it("is gone once a pass delivers again", async () => {
    await storeRun(t.db.sql, "sync", [
      { taxId: "50000002", date: "2026-11-21", headings: ["seat"], lists: ["suppliers"] },
    ]);
    expect(await deliver()).toMatchObject({ unexpected: 0, sent: 2 });
    for (const html of [await page("/", reader), await page("/rules", reviewer)])
      expect(html).not.toContain("delivery-failing");
  });
});
