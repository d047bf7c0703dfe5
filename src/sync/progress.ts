/** What a sync pass reports as it goes; the CLI draws it, the daemon logs it, tests ignore it. */
export interface ProgressSink {
  plan(totals: { windows: number; files: number }): void;
  windowDone(failed: boolean): void;
  filesAdded(count: number): void;
  fileDone(failed: boolean): void;
  /** One HTTP request went out (for the requests/s figure); `answered` when the server replied. */
  request(answered?: boolean): void;
  /** A request failed and is tried again: until a first answer, progress says it is waiting. */
  retrying?(retry: { attempt: number; maxAttempts: number; delayMs: number }): void;
}

export const noProgress: ProgressSink = {
  plan: () => {},
  windowDone: () => {},
  filesAdded: () => {},
  fileDone: () => {},
  request: () => {},
};
