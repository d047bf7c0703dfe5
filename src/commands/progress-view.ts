/**
 * Progress of a sync or backfill on stderr: a live bar on a terminal, plain lines otherwise
 * (every few seconds), so logs and CI output stay readable.
 */
import cliProgress from "cli-progress";
import type { ProgressSink } from "../sync/progress.ts";

export interface ProgressView extends ProgressSink {
  stop(): void;
}

export function createProgressView(
  stream: NodeJS.WriteStream = process.stderr,
  intervalMs = 5000,
): ProgressView {
  const state = { windows: 0, windowsDone: 0, files: 0, filesDone: 0, failed: 0, requests: 0 };
  const started = Date.now();
  const rate = () => state.requests / Math.max(1, (Date.now() - started) / 1000);
  const eta = () => {
    const total = state.windows + state.files;
    const done = state.windowsDone + state.filesDone;
    const r = done / Math.max(1, (Date.now() - started) / 1000);
    return done === 0 || total === done ? 0 : Math.round((total - done) / r);
  };

  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format:
          "{bar} {percentage}% | windows {wd}/{wt} | files {fd}/{ft} | failed {failed} | {rps} req/s | ETA {etaText}",
        hideCursor: true,
        stream,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(1, 0, payload());
    const redraw = () => bar.setTotal(Math.max(1, state.windows + state.files));
    const tick = () => bar.update(state.windowsDone + state.filesDone, payload());
    function payload() {
      return {
        wd: state.windowsDone,
        wt: state.windows,
        fd: state.filesDone,
        ft: state.files,
        failed: state.failed,
        rps: rate().toFixed(1),
        etaText: `${eta()}s`,
      };
    }
    return {
      plan: (t) => {
        state.windows = t.windows;
        state.files += t.files;
        redraw();
        tick();
      },
      windowDone: (failed) => {
        state.windowsDone++;
        if (failed) state.failed++;
        tick();
      },
      filesAdded: (n) => {
        state.files += n;
        redraw();
        tick();
      },
      fileDone: (failed) => {
        state.filesDone++;
        if (failed) state.failed++;
        tick();
      },
      request: () => {
        state.requests++;
      },
      stop: () => bar.stop(),
    };
  }

  const line = () =>
    stream.write(
      `progress: windows ${state.windowsDone}/${state.windows}, files ${state.filesDone}/${state.files}, failed ${state.failed}, ${rate().toFixed(1)} req/s, ETA ${eta()}s\n`,
    );
  const timer = setInterval(line, intervalMs);
  timer.unref();
  return {
    plan: (t) => {
      state.windows = t.windows;
      state.files += t.files;
    },
    windowDone: (failed) => {
      state.windowsDone++;
      if (failed) state.failed++;
    },
    filesAdded: (n) => {
      state.files += n;
    },
    fileDone: (failed) => {
      state.filesDone++;
      if (failed) state.failed++;
    },
    request: () => {
      state.requests++;
    },
    stop: () => {
      clearInterval(timer);
      if (state.windows + state.files > 0) line();
    },
  };
}
