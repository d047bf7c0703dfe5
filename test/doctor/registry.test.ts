/**
 * The doctor against the emulator and hostile servers: every registry-side check passing, then
 * each failing alone with its message (a refused key, a registry whose clock is off, a description
 * that contradicts the environment, a file origin nobody answers at, a search interface that is
 * not there, a spent quota), and never a key where it does not belong.
 */
import { describe, expect, it } from "vitest";
import { localDateTime } from "../../src/dates.ts";
import { startEmulator } from "../../src/emulator/index.ts";
import { closedPort, doctorWith, doctorWorld, notOk, resultOf } from "./harness.ts";

const world = doctorWorld(71);
const env = world.env;

/** Answers the list read with a Date header `offsetMs` off the real clock; nothing else exists. */
function registryWithClockOff(offsetMs: number) {
  world.hostile.answer = (req, res) => {
    res.setHeader("date", new Date(Date.now() + offsetMs).toUTCString());
    if (req.path === "/v2/lists") {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ watch_lists: [], total_watch_count: 0 }));
    } else {
      res.statusCode = 404;
      res.end('{"detail":"Not Found"}');
    }
  };
}

describe("regwatch doctor against the registry", () => {
  it("passes every check against the emulator, makes no search request with the key and writes nothing", async () => {
    world.emulator.resetLog();
    const results = await doctorWith(env());
    expect(notOk(results)).toEqual([]);
    expect(resultOf(results, "watch key").message).toMatch(/the key was accepted: 0 watch list/);
    expect(resultOf(results, "description").message).toMatch(
      /start_date \/ end_date.*the runs use these names/,
    );
    expect(resultOf(results, "search quota").message).toMatch(/^0 of 2000 search requests used/);
    // The search interface got no request at all, with the key or without it.
    expect(world.emulator.requests().filter((r) => r.path.startsWith("/v1/"))).toEqual([]);
    expect(world.emulator.requests().every((r) => r.keyValid)).toBe(true);
    expect(resultOf(results, "search interface").message).toMatch(
      /^the address took a connection \(connected\), closed before any request; no search request was sent: the registry counts every search request toward the monthly quota and documents none that is free/,
    );
    const [written] = await world.tdb.db.sql<{ n: number }[]>`
      select (select count(*) from regwatch.api_usage)::int + (select count(*) from regwatch.runs)::int as n`;
    expect(written?.n).toBe(0);
  });

  it("names a refused key as refused, and never prints it", async () => {
    const key = "wrong-key-0123456789";
    const results = await doctorWith(env({ REGWATCH_API_KEY: key }));
    expect(notOk(results)).toEqual(["watch key: fail", "search interface: fail"]);
    const watch = resultOf(results, "watch key");
    expect(watch.message).toMatch(/^the registry refused the key: GET \/v2\/lists answered 401/);
    expect(watch.next).toMatch(/REGWATCH_API_KEY/);
    expect(resultOf(results, "search interface").message).toMatch(
      /its key is the watch key, which the registry refused/,
    );
    expect(JSON.stringify(results)).not.toContain(key);
  });

  it("fails the clock past 15 minutes and warns past 2, from the registry's Date header", async () => {
    registryWithClockOff(20 * 60_000);
    const far = await doctorWith(
      env({ REGWATCH_WATCH_URL: world.hostile.origin, REGWATCH_SEARCH_URL: undefined }),
    );
    const clock = resultOf(far, "clock");
    expect(clock.status).toBe("fail");
    expect(clock.message).toMatch(/^ours is 20 min behind the registry's \(more than 15 minutes\)/);
    expect(clock.next).toMatch(/NTP/);
    expect(resultOf(far, "watch key").status).toBe("ok");

    registryWithClockOff(-5 * 60_000);
    const near = resultOf(await doctorWith(env({ REGWATCH_WATCH_URL: world.hostile.origin })), "clock");
    expect(near.status).toBe("warn");
    expect(near.message).toMatch(/^ours is 5 min ahead of the registry's \(more than 2 minutes\)/);
  });

  it("fails when the description contradicts a variable set in the environment, and follows it otherwise", async () => {
    const described = await startEmulator({
      seed: 72,
      businesses: 100,
      changesFromParam: "date_from",
      changesToParam: "date_to",
    });
    try {
      const contradicted = await doctorWith(
        env({
          REGWATCH_WATCH_URL: `${described.url}/v2`,
          REGWATCH_SEARCH_URL: described.url,
          REGWATCH_CHANGES_FROM_PARAM: "start_date",
        }),
      );
      expect(notOk(contradicted)).toEqual(["description: fail"]);
      const description = resultOf(contradicted, "description");
      expect(description.message).toMatch(
        /^REGWATCH_CHANGES_FROM_PARAM is "start_date" but the registry's description names the changes parameter "date_from"/,
      );
      expect(description.message).toContain(`${described.url}/v2/openapi.json`);
      expect(description.next).toMatch(/unset the variable/);

      const followed = resultOf(
        await doctorWith(env({ REGWATCH_WATCH_URL: described.url, REGWATCH_SEARCH_URL: described.url })),
        "description",
      );
      expect(followed.status).toBe("ok");
      expect(followed.message).toMatch(/interval date_from \/ date_to.*the runs use these names/);
    } finally {
      await described.close();
    }
  });

  it("reaches each file origin, fails the one nobody answers at, and sends the key to none but the watch origin", async () => {
    world.hostile.seen.length = 0;
    world.hostile.answer = (_req, res) => {
      res.statusCode = 403;
      res.end("no listing");
    };
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const results = await doctorWith(
      env({
        REGWATCH_FILE_ORIGINS: `${world.emulator.url},${world.hostile.origin},${dead}`,
        REGWATCH_CLIENT_ID: "XXXX-00001",
      }),
    );
    expect(notOk(results)).toEqual([`file origin ${dead}: fail`]);
    expect(resultOf(results, `file origin ${dead}`).message).toMatch(
      /^not reachable: GET \/ \(file origin\): connection failed/,
    );
    expect(resultOf(results, `file origin ${dead}`).next).toMatch(/REGWATCH_FILE_ORIGINS/);
    expect(resultOf(results, `file origin ${world.hostile.origin}`).message).toBe(
      `reached (HTTP 403 to GET /); the key was not sent (regwatch sends it to ${world.emulator.url} only)`,
    );
    expect(resultOf(results, `file origin ${world.emulator.url}`).message).toMatch(
      /the watch interface's own origin/,
    );
    expect(world.hostile.seen.map((r) => r.path)).toEqual(["/"]);
    expect(world.hostile.seen[0]!.headers["x-api-key"]).toBeUndefined();
    expect(world.hostile.seen[0]!.headers["x-client-id"]).toBeUndefined();
  });

  it("fails the watch checks when the watch address answers nothing", async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const results = await doctorWith(env({ REGWATCH_WATCH_URL: dead }));
    expect(notOk(results)).toEqual([
      "watch key: fail",
      "clock: warn",
      "description: warn",
      `file origin ${dead}: fail`,
    ]);
    expect(resultOf(results, "watch key").message).toMatch(
      /^the watch interface did not answer: GET \/v2\/lists: connection failed/,
    );
  });

  it("sends no request without the key: every request that reaches the registry carries it", async () => {
    // Watch, search and file origin on one server that records every request and its headers.
    world.hostile.seen.length = 0;
    world.hostile.answer = (req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.path === "/v2/lists") res.end(JSON.stringify({ watch_lists: [], total_watch_count: 0 }));
      else {
        res.statusCode = 404;
        res.end('{"detail":"Not Found"}');
      }
    };
    const key = "hostile-doctor-key-0123456789";
    const results = await doctorWith(
      env({
        REGWATCH_WATCH_URL: `${world.hostile.origin}/v2`,
        REGWATCH_SEARCH_URL: `${world.hostile.origin}/v1`,
        REGWATCH_API_KEY: key,
      }),
    );
    expect(resultOf(results, "watch key").status).toBe("ok");
    expect(world.hostile.seen.length).toBeGreaterThan(0);
    expect(world.hostile.seen.filter((r) => r.headers["x-api-key"] !== key).map((r) => r.path)).toEqual([]);
    expect(world.hostile.seen.filter((r) => r.path.startsWith("/v1/"))).toEqual([]);
  });

  it("checks the search address by a connection only, says why, and fails when nothing listens", async () => {
    world.hostile.seen.length = 0;
    const own = resultOf(
      await doctorWith(
        env({ REGWATCH_SEARCH_URL: world.hostile.origin, REGWATCH_SEARCH_API_KEY: "search-key-0123456789" }),
      ),
      "search interface",
    );
    expect(own.status).toBe("ok");
    expect(own.message).toMatch(
      /no search request was sent: .*; REGWATCH_SEARCH_API_KEY is a key of its own and was not tried \(the first lookup tries it\)$/,
    );
    expect(world.hostile.seen).toEqual([]);

    const port = await closedPort();
    const none = resultOf(
      await doctorWith(env({ REGWATCH_SEARCH_URL: `http://127.0.0.1:${port}/v1` })),
      "search interface",
    );
    expect(none.status).toBe("fail");
    expect(none.message).toMatch(/^the search interface's address took no connection: .*ECONNREFUSED/);
  });

  it("fails the quota when this month's search requests are used up", async () => {
    const today = localDateTime(new Date(), "Europe/Budapest").date;
    await world.tdb.db.sql`
      insert into regwatch.api_usage (day, api, endpoint, requests, errors)
      values (${today}, 'search', 'GET /v1/names', 25, 0)`;
    try {
      const results = await doctorWith(env({ REGWATCH_SEARCH_MONTHLY_QUOTA: "25" }));
      expect(notOk(results)).toEqual(["search quota: fail"]);
      const quota = resultOf(results, "search quota");
      expect(quota.message).toMatch(
        /^25 of 25 search requests used this month, 0 left \(the doctor spent none\): lookups are refused until \d{4}-\d{2}-01$/,
      );
      expect(quota.next).toMatch(/REGWATCH_SEARCH_MONTHLY_QUOTA/);
    } finally {
      await world.tdb.db.sql`delete from regwatch.api_usage`;
    }
  });
});
