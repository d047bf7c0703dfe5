/**
 * Progress of a sync or backfill on stderr: a live bar on a terminal, plain lines otherwise
 * (every few seconds), so logs and CI output stay readable.
 */
import cliProgress from "cli-progress";
import type { ProgressSink } from "../sync/progress.ts";
import type { LogRouter } from "./log-router.ts";

export interface ProgressView extends ProgressSink {
  stop(): void;
}

interface Counts {
  windows: number;
  windowsDone: number;
  files: number;
  filesDone: number;
  failed: number;
  requests: number;
  /** The registry has answered at least once (any status). */
  answered: boolean;
  /** The latest retry before the first answer: the attempt coming next and when it leaves. */
  waiting?: { attempt: number; maxAttempts: number; at: number };
}

/**
 * What the progress says now: the counts with the rate and the ETA once the registry has
 * answered; before that, while requests fail and are retried, that it is waiting for it.
 */
function statusText(c: Counts, rate: () => string, eta: () => number, now = Date.now()): string {
  if (!c.answered && c.waiting) {
    const inS = Math.max(0, (c.waiting.at - now) / 1000).toFixed(0);
    return `waiting for the registry: no answer yet; attempt ${c.waiting.attempt} of ${c.waiting.maxAttempts} in ${inS} s`;
  }
  return `windows ${c.windowsDone}/${c.windows}, files ${c.filesDone}/${c.files}, failed ${c.failed}, ${rate()} req/s, ETA ${eta()}s`;
}

/**
 * `router`, when given, is taken over while the bar is drawn: log lines are printed above the bar
 * instead of over it.
 */
export function createProgressView(
  stream: NodeJS.WriteStream = process.stderr,
  intervalMs = 5000,
  router?: LogRouter,
): ProgressView {
  const counts: Counts = {
    windows: 0,
    windowsDone: 0,
    files: 0,
    filesDone: 0,
    failed: 0,
    requests: 0,
    answered: false,
  };
  const started = Date.now();
  const elapsed = () => Math.max(1, (Date.now() - started) / 1000);
  const rate = () => (counts.requests / elapsed()).toFixed(1);
  const eta = () => {
    const total = counts.windows + counts.files;
    const done = counts.windowsDone + counts.filesDone;
    return done === 0 || total === done ? 0 : Math.round((total - done) / (done / elapsed()));
  };
  const display = stream.isTTY
    ? barDisplay(stream, counts, rate, eta, router)
    : lineDisplay(stream, counts, rate, eta, intervalMs);
  return {
    plan: (t) => {
      counts.windows = t.windows;
      counts.files += t.files;
      display.update();
    },
    windowDone: (failed) => {
      counts.windowsDone++;
      if (failed) counts.failed++;
      display.update();
    },
    filesAdded: (n) => {
      counts.files += n;
      display.update();
    },
    fileDone: (failed) => {
      counts.filesDone++;
      if (failed) counts.failed++;
      display.update();
    },
    request: (answered = true) => {
      counts.requests++;
      if (answered && !counts.answered) {
        counts.answered = true;
        display.update();
      }
    },
    retrying: ({ attempt, maxAttempts, delayMs }) => {
      if (counts.answered) return;
      counts.waiting = { attempt, maxAttempts, at: Date.now() + delayMs };
      display.update();
    },
    stop: () => display.stop(),
  };
}

interface Display {
  update(): void;
  stop(): void;
}

function barDisplay(
  stream: NodeJS.WriteStream,
  c: Counts,
  rate: () => string,
  eta: () => number,
  router: LogRouter | undefined,
): Display {
  // A multi-bar of one bar: its log() prints lines above the bar at the next redraw.
  const bars = new cliProgress.MultiBar(
    {
      format: "{bar} {percentage}% | {status}",
      hideCursor: true,
      forceRedraw: true, // after a log line printed above it, the bar is drawn again at once
      stream,
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = () => ({ status: statusText(c, rate, eta) });
  const bar = bars.create(1, 0, payload());
  const unroute = router?.route((line) => bars.log(`${line}\n`));
  let stopped = false;
  return {
    update: () => {
      bar.setTotal(Math.max(1, c.windows + c.files));
      bar.update(c.windowsDone + c.filesDone, payload());
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      unroute?.();
      bars.update(); // prints the lines still waiting above the bar
      bars.stop();
    },
  };
}

function lineDisplay(
  stream: NodeJS.WriteStream,
  c: Counts,
  rate: () => string,
  eta: () => number,
  intervalMs: number,
): Display {
  const line = () => stream.write(`progress: ${statusText(c, rate, eta)}\n`);
  const timer = setInterval(line, intervalMs);
  timer.unref();
  let stopped = false;
  return {
    update: () => {},
    stop: () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      if (c.windows + c.files > 0) line();
    },
  };
}
