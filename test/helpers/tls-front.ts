/**
 * A Postgres-speaking TLS front for tests: it answers the SSLRequest, terminates TLS with a
 * self-signed certificate made by openssl, records the server name of each ClientHello, and
 * relays to a Postgres in clear. It stands for a managed Postgres that routes connections by SNI.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";

/** Postgres's SSLRequest: length 8, then the code 1234.5679. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

export interface TlsFront {
  port: number;
  serverNames: (string | false)[];
  close(): Promise<void>;
}

async function listenTls(upstream: URL, key: Buffer, cert: Buffer): Promise<TlsFront> {
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

/** A front to `upstream` with a certificate for pg.regwatch.test, valid for a day. */
export async function startTlsFront(upstream: URL): Promise<TlsFront> {
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-tls-"));
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=pg.regwatch.test"].concat(
        ["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")],
      ),
      { stdio: "ignore" },
    );
    return await listenTls(
      upstream,
      readFileSync(path.join(dir, "key.pem")),
      readFileSync(path.join(dir, "cert.pem")),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `url` (a database's) through `front`, with this host name and sslmode. */
export function viaFront(url: string, front: TlsFront, host: string, sslmode: string): string {
  const through = new URL(url);
  through.hostname = host;
  through.port = String(front.port);
  through.searchParams.set("sslmode", sslmode);
  return through.href;
}
