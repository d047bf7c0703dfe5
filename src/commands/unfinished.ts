/**
 * The safety net under every command: Node ends a process whose event loop has drained, exit 0,
 * even while the command's action still waits (a promise nothing will ever settle). While an
 * action runs, such an end is turned into a failure (issue 48, point 7): the database's exit
 * status and message when the database was lost, else 70, and one line saying so.
 */
import { lastDatabaseLoss } from "../db/db-errors.ts";
import { EXIT, exitCodeOf } from "../errors.ts";

/** Watches `action` until it settles; what the command returns is the action's own. */
export async function failIfUnfinished<T>(
  action: Promise<T>,
  say: (line: string, error?: Error) => void,
): Promise<T> {
  let said = false;
  const drained = () => {
    if (said) return;
    said = true;
    const loss = lastDatabaseLoss();
    process.exitCode = loss ? exitCodeOf(loss) : EXIT.internal;
    say(
      loss
        ? `the command ended without finishing: ${loss.message}`
        : "the command ended without finishing: its work waited on something that will never answer (a bug of regwatch; please report it)",
      loss,
    );
  };
  process.on("beforeExit", drained);
  try {
    return await action;
  } finally {
    process.off("beforeExit", drained);
  }
}
