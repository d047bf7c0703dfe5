/**
 * `npm run bench -- --loaded`: a busy machine of the bench's own making. `startLoad` starts one
 * child Node process that keeps a core busy (arithmetic in a tight loop) until `stop`; the bench
 * runs its scenarios beside it and keeps their figures apart (bench/results-loaded.json).
 *
 * The child cannot outlive the bench: `stop`, the bench's exit (any `process.exit`, the end of its
 * work, an uncaught error) and SIGINT/SIGTERM/SIGHUP kill it; and should the bench die without
 * running any of those (SIGKILL, a crash of Node itself), the child sees its IPC channel close and
 * leaves. The loop yields to its event loop every SLICE_MS for that, a pause of microseconds.
 */
import { spawn } from "node:child_process";

/** How long the child spins between two looks at its channel to the bench. */
export const SLICE_MS = 50;

/** The child's program: spin, let the event loop see a closed channel, spin again. */
const SPIN = `
process.on("disconnect", () => process.exit(0));
let x = 0;
const spin = () => {
  const end = Date.now() + ${SLICE_MS};
  while (Date.now() < end) for (let i = 0; i < 10000; i++) x = (x * 1103515245 + 12345) % 2147483648;
  setImmediate(spin);
};
process.send("spinning");
spin();
`;

export interface Load {
  /** The child's process id. */
  pid: number;
  /** Kills the child and waits for it to be gone. Safe to call more than once. */
  stop(): Promise<void>;
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const SIGNAL_EXIT: Record<(typeof SIGNALS)[number], number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** Starts the busy child; resolves once it is spinning. */
export async function startLoad(): Promise<Load> {
  const child = spawn(process.execPath, ["-e", SPIN], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const onExit = () => kill();
  const onSignal = (signal: (typeof SIGNALS)[number]) => {
    kill();
    process.exit(SIGNAL_EXIT[signal]);
  };
  process.on("exit", onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const unhook = () => {
    process.off("exit", onExit);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("error", reject);
      child.once("exit", (code, signal) =>
        reject(new Error(`the load process ended before it started (exit ${code ?? signal})`)),
      );
    });
  } catch (error) {
    kill();
    unhook();
    throw error;
  }
  // The channel stays open (the child's safety net) without keeping the bench alive.
  child.unref();
  (child.channel as { unref?: () => void } | undefined)?.unref?.();
  return {
    pid: child.pid!,
    async stop() {
      kill();
      await gone;
      unhook();
    },
  };
}

/** The file a bench writes its figures to: `results.json` beside `results-loaded.json`. */
export function figuresFile(name: string, loaded: boolean): URL {
  return new URL(loaded ? `./${name.replace(/\.json$/, "-loaded.json")}` : `./${name}`, import.meta.url);
}
