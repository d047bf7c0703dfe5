/**
 * The console from the bundled build (`npm run build`, then the published bin/regwatch.js): its
 * templates and static files are found under dist/web/, where scripts/build.mjs copies them.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebProcess } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

describe("the built console", () => {
  it("ships its views and static files in dist/web and serves pages from them", async () => {
    for (const file of [
      "dist/web/views/layout.eta",
      "dist/web/views/inbox.eta",
      "dist/web/static/console.css",
    ]) {
      expect(existsSync(`${ROOT}/${file}`), file).toBe(true);
    }
    const web = await startWebProcess(`${ROOT}/bin/regwatch.js`, { DATABASE_URL: t.url });
    try {
      const url = web.url;
      const login = await fetch(`${url}/login`);
      expect(login.status).toBe(200);
      expect(await login.text()).toMatch(/<form method="post" action="\/login">/);
      const css = await fetch(`${url}/static/console.css`);
      expect(css.status).toBe(200);
      expect(await css.text()).toContain(".login");
    } finally {
      await web.stop();
    }
  });
});
