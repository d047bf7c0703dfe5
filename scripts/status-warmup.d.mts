/** Types of scripts/status-warmup.mjs, for the test that replays its recording. */
export const CONVERSATION: string;
export function replayServer(
  conversation: { server: string },
  migrations: number,
): Promise<{ url: string; close(): Promise<void> }>;
export function shippedMigrations(root?: string): number;
