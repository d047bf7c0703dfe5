/**
 * What every process a test starts with a clean environment gets: PATH and HOME; TMPDIR and
 * TEST_RUN_DIR, the run's folder (test/setup/run-folder.ts), so that its temporary files lie there
 * and an interrupted run finds and stops it; and, in a run whose clock is shifted (`npm run test:at`,
 * through libfaketime), the variables that shift it. A child on the real clock beside a test on the
 * shifted one dates rows a day or a month away from the test that checks them.
 */
const SHIFTED_CLOCK = ["LD_PRELOAD", "FAKETIME", "FAKETIME_DONT_FAKE_MONOTONIC"] as const;

export function childBaseEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    TEST_RUN_DIR: process.env.TEST_RUN_DIR,
  };
  // LD_PRELOAD is passed on only with FAKETIME: a preload of another purpose stays with this process.
  if (process.env.FAKETIME !== undefined) for (const name of SHIFTED_CLOCK) env[name] = process.env[name];
  return env;
}
