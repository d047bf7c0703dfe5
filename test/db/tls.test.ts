/**
 * TLS to Postgres through regwatch's own socket factory (Nagle off). A Postgres-speaking TLS
 * front, with a self-signed certificate made here by openssl, answers the SSLRequest, terminates
 * TLS, records the server name of the ClientHello, and relays to the test Postgres in clear: it
 * stands for a managed Postgres that routes connections by SNI.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../src/db/connect.ts";
import { databaseGone } from "../../src/db/db-errors.ts";

/** Postgres's SSLRequest: length 8, then the code 1234.5679. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

interface TlsFront {
  port: number;
  serverNames: (string | false)[];
  close(): Promise<void>;
}

async function startTlsFront(upstream: URL, key: Buffer, cert: Buffer): Promise<TlsFront> {
  const serverNames: (string | false)[] = [];
  const context = tls.createSecureContext({ key, cert });
  const sockets = new Set<net.Socket>();
  const server = net.createServer((raw) => {
    sockets.add(raw);
    raw.on("close", () => sockets.delete(raw));
    raw.on("error", () => raw.destroy());
    raw.once("data", (first: Buffer) => {
      if (!first.subarray(0, 8).equals(SSL_REQUEST)) {
        raw.end(); // a client without TLS: refused, as a provider that requires it would
        return;
      }
      raw.write("S");
      const secure = new tls.TLSSocket(raw, { isServer: true, secureContext: context });
      secure.on("error", () => raw.destroy());
      secure.once("secure", () => {
        serverNames.push((secure as tls.TLSSocket & { servername: string | false }).servername);
        const back = net.connect(Number(upstream.port || 5432), upstream.hostname);
        sockets.add(back);
        back.on("close", () => sockets.delete(back));
        back.on("error", () => secure.destroy());
        secure.pipe(back).pipe(secure);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    serverNames,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("TLS to Postgres", () => {
  let dir: string;
  let front: TlsFront;
  let upstream: URL;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "regwatch-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=pg.regwatch.test",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    upstream = new URL(inject("pgServerUrl"));
    front = await startTlsFront(
      upstream,
      readFileSync(path.join(dir, "key.pem")),
      readFileSync(path.join(dir, "cert.pem")),
    );
  });

  afterAll(async () => {
    await front?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function urlVia(host: string, sslmode: string): string {
    const url = new URL(upstream.href);
    url.hostname = host;
    url.port = String(front.port);
    url.searchParams.set("sslmode", sslmode);
    return url.href;
  }

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
