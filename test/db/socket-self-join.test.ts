/**
 * A connection to a local port on which nothing listens may join itself (TCP's simultaneous open
 * when the kernel picks that very port as the connection's own: the embedded server's port is in
 * the ephemeral range). Such a socket is refused at once, as a stopped server's port is, rather
 * than handed to postgres.js, which would wait out its 30 s connect timeout on its own echo.
 * The test makes the join happen on purpose by asking for the same local port.
 */
import net, { type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { open } from "../../src/db/socket.ts";

/** A port of 127.0.0.1 on which nothing listens (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a connection that joins itself", () => {
  it("is what the kernel makes of a connect from and to the same free port", async () => {
    const port = await closedPort();
    const socket = net.connect({ host: "127.0.0.1", port, localAddress: "127.0.0.1", localPort: port });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", reject);
    });
    expect(socket.localPort).toBe(socket.remotePort);
    socket.destroy();
  });

  it("is refused as a port where nothing listens, not handed on", async () => {
    const port = await closedPort();
    await expect(open({ host: "127.0.0.1", port, localPort: port }, 5)).rejects.toMatchObject({
      code: "ECONNREFUSED",
      message: `connect ECONNREFUSED 127.0.0.1:${port} (nothing listens there: the connection joined itself)`,
    });
  });

  it("leaves an ordinary connection alone", async () => {
    const server = net.createServer((peer) => peer.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const socket = await open({ host: "127.0.0.1", port }, 5);
      expect(socket.remotePort).toBe(port);
      socket.destroy();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
