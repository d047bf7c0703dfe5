/**
 * A pool's sockets at its close (src/db/socket.ts): the driver ends a connection with Terminate
 * and would then wait for the server to close its side, which Postgres does once the session's
 * backend has exited. The pool's close instead closes each socket as soon as its Terminate has
 * left, so a command does not wait on the server's exit. The server here never closes its side.
 */
import { once } from "node:events";
import net, { type AddressInfo } from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";
import { closeWhenWritten, withNoDelay } from "../../src/db/socket.ts";

const received: Buffer[] = [];
const held: net.Socket[] = [];
const server = net.createServer({ allowHalfOpen: true }, (socket) => {
  held.push(socket);
  socket.on("data", (chunk) => received.push(chunk));
  // Never ended from this side: a server that keeps its side open.
  socket.on("end", () => received.push(Buffer.from("<end>")));
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("a pool's sockets at its close", () => {
  it("are closed once their last write has left, whatever the server does with its side", async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const opened = new Set<net.Socket>();
    const options = withNoDelay({}, opened) as unknown as {
      socket: (o: { host: string[]; port: number[] }) => Promise<net.Socket>;
    };
    const socket = await options.socket({ host: ["127.0.0.1"], port: [port] });
    expect([...opened]).toEqual([socket]);

    closeWhenWritten(opened);
    const closed = once(socket, "close");
    socket.end(Buffer.from("X\0\0\0\x04"));
    await closed;
    expect(socket.destroyed).toBe(true);
    expect(opened.size).toBe(0);
    // What was written reached the server, and then the end of the stream.
    await vi.waitFor(() => expect(Buffer.concat(received).toString("latin1")).toBe("X\0\0\0\x04<end>"));
  }, 10_000);
});
