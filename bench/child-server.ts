/**
 * A test server run as a child process, so its memory is not counted in the measured process.
 * `source` is a CommonJS script that listens on 127.0.0.1:0 and prints its port on stdout; it gets
 * `arg` as process.argv[1].
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

export interface ChildServer {
  url: string;
  stop(): void;
}

export async function serveFromChild(source: string, arg: string): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, ["-e", source, arg], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const [line] = (await once(child.stdout!, "data")) as [Buffer];
    return { url: `http://127.0.0.1:${Number(line.toString().trim())}`, stop: () => child.kill() };
  } catch (error) {
    child.kill();
    throw error;
  }
}
