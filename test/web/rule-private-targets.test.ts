/**
 * The console's rules page refuses a private alert target as the CLI does (issue 48, point 6):
 * 400 naming the target and REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS, nothing stored; with the
 * setting true the same rule is added.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, postForm, signIn, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
const consoles: TestConsole[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  await createUser(t.db, "ada", "admin");
});
afterAll(async () => {
  for (const c of consoles) await c.close();
  await t?.drop();
});

async function addRule(allow: boolean, name: string, channel: string, target: string) {
  const web = await startTestConsole(t.db, {
    env: allow ? { REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: "true" } : {},
  });
  consoles.push(web);
  const ada = await signIn(web.url, "ada");
  return postForm(`${web.url}/rules`, ada, { name, channel, target });
}

describe("the rules page and private targets", () => {
  const inside: [string, string][] = [
    ["webhook", "http://127.0.0.1:8080/hook"],
    ["webhook", "http://169.254.169.254/latest/meta-data"],
    ["webhook", "http://[fd00::1]/hook"],
    ["email", "a@[127.0.0.1]"],
  ];

  it("refuses each with 400, naming the target and the setting, and stores nothing", async () => {
    for (const [channel, target] of inside) {
      const answer = await addRule(false, "inside", channel, target);
      expect(answer.status, target).toBe(400);
      const page = await answer.text();
      expect(page).toContain("REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS");
      expect(page).toContain(target.replaceAll("&", "&amp;"));
    }
    expect(await t.db.sql`select 1 from regwatch.alert_rules`).toHaveLength(0);
  });

  it("adds each when the operator allows private targets", async () => {
    for (const [i, [channel, target]] of inside.entries()) {
      const answer = await addRule(true, `inside-${i}`, channel, target);
      expect(answer.status, target).toBe(303);
    }
    expect(await t.db.sql`select 1 from regwatch.alert_rules`).toHaveLength(inside.length);
  });
});
