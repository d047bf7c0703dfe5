/**
 * Issue 46 point 10: a database host whose name gives no address is said in words, whether the
 * resolver answered that there is no such name (ENOTFOUND), gave no answer at all (EAI_AGAIN: no
 * network, or a DNS server that does not reply) or failed (EAI_FAIL). The errors have the shape
 * Node's getaddrinfo gives them; test/first-week/messages.test.ts meets one from the real resolver.
 */
import { describe, expect, it } from "vitest";
import { classifyDatabaseError, DatabaseUnavailableError, databaseGone } from "../../src/db/db-errors.ts";

const lookupError = (code: string, hostname: string) =>
  Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), {
    code,
    errno: code === "EAI_AGAIN" ? -3001 : -3008,
    syscall: "getaddrinfo",
    hostname,
  });

describe("a database host whose name gives no address", () => {
  it("is not found when the resolver says there is no such name", () => {
    expect(databaseGone(lookupError("ENOTFOUND", "pg.corp.invalid"))).toBe(
      "could not connect to the database: the host pg.corp.invalid was not found (ENOTFOUND); check the host in DATABASE_URL",
    );
  });

  it("could not be looked up when no DNS server answered: the network and DNS settings are named first", () => {
    expect(databaseGone(lookupError("EAI_AGAIN", "pg.corp.invalid"))).toBe(
      "could not connect to the database: the name of the host pg.corp.invalid could not be looked up: no DNS server answered (EAI_AGAIN); check this machine's network and DNS settings, then the host in DATABASE_URL",
    );
  });

  it("could not be looked up when the DNS server failed", () => {
    expect(databaseGone(lookupError("EAI_FAIL", "pg.corp.invalid"))).toContain(
      "the name of the host pg.corp.invalid could not be looked up: the DNS server failed (EAI_FAIL)",
    );
  });

  it("is the database being unavailable, so a daemon waits for it to answer again", () => {
    for (const code of ["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL"])
      expect(classifyDatabaseError(lookupError(code, "pg.corp.invalid")), code).toBeInstanceOf(
        DatabaseUnavailableError,
      );
  });
});
