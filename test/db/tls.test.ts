/**
 * TLS to Postgres through regwatch's own socket factory (Nagle off), against a Postgres-speaking
 * TLS front (test/helpers/tls-front.ts) that records the server name of each ClientHello and
 * relays to the test Postgres in clear.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../src/db/connect.ts";
import { databaseGone } from "../../src/db/db-errors.ts";
import { startTlsFront, type TlsFront, viaFront } from "../helpers/tls-front.ts";

describe("TLS to Postgres", () => {
  let front: TlsFront;
  let upstream: URL;

  beforeAll(async () => {
    upstream = new URL(inject("pgServerUrl"));
    front = await startTlsFront(upstream);
  });

  afterAll(async () => {
    await front?.close();
  });

  const urlVia = (host: string, sslmode: string) => viaFront(upstream.href, front, host, sslmode);

  it("sslmode=require connects, and the handshake carries the host name", async () => {
    const before = front.serverNames.length;
    const db = await openDatabase({ databaseUrl: urlVia("localhost", "require"), dataDir: "" });
    try {
      const [row] = await db.sql<{ one: number }[]>`select 1 as one`;
      expect(row?.one).toBe(1);
    } finally {
      await db.close();
    }
    const names = front.serverNames.slice(before);
    expect(names.length).toBeGreaterThanOrEqual(1);
    expect(new Set(names)).toEqual(new Set(["localhost"]));
  });

  it("an IP address is not sent as a server name (SNI holds host names only)", async () => {
    const before = front.serverNames.length;
    const db = await openDatabase({ databaseUrl: urlVia("127.0.0.1", "require"), dataDir: "" });
    try {
      const [row] = await db.sql<{ one: number }[]>`select 1 as one`;
      expect(row?.one).toBe(1);
    } finally {
      await db.close();
    }
    expect(front.serverNames.slice(before)).toEqual([false]);
  });

  it("sslmode=verify-full refuses the self-signed certificate, and says so in words", async () => {
    const failure = await openDatabase({ databaseUrl: urlVia("localhost", "verify-full"), dataDir: "" }).then(
      async (db) => {
        try {
          await db.sql`select 1`;
          return undefined;
        } catch (error) {
          return error;
        } finally {
          await db.close();
        }
      },
      (error: unknown) => error,
    );
    expect(databaseGone(failure)).toBe(
      "could not connect to the database: its TLS certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT, with sslmode=verify-full or verify-ca): check the host name in DATABASE_URL, or give Node the certificate authority with NODE_EXTRA_CA_CERTS",
    );
  });
});
