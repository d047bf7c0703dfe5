/**
 * A registry description validated and its internal references resolved, in a worker thread
 * (description-worker.ts) that ends when it has answered. @readme/openapi-parser and its schema
 * validator are the largest code a run loads, and what they leave behind (the modules, the
 * specification's schemas, the validators compiled from them) cannot be unloaded from the thread
 * that ran them: in a backfill's process that was about 4 MB of live heap and 1 MB of bytecode
 * for the rest of the run, read once (measured on Node 20, issue 38). The thread's own heap goes
 * with it, before the run's pages start.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { packageRoot } from "../package-root.ts";

export type ParsedDescription = { ok: true; resolved: unknown } | { ok: false; problem: string };

/** Validates and dereferences `document` (a parsed JSON value) in a thread of its own. */
export function parseDescription(document: unknown): Promise<ParsedDescription> {
  return new Promise((resolve) => {
    const worker = startWorker(document);
    let answer: ParsedDescription | undefined;
    worker.once("message", (message: ParsedDescription) => {
      answer = message;
    });
    worker.once("error", (error) => {
      answer ??= { ok: false, problem: `could not be parsed (${error.message.slice(0, 200)})` };
    });
    worker.once("exit", (code) => {
      resolve(answer ?? { ok: false, problem: `could not be parsed (the parser's thread exited ${code})` });
    });
  });
}

/**
 * The worker runs dist/description-worker.js beside the bundle's entry (scripts/build.mjs builds
 * it as an entry of its own), without the process's own flags (Node's memory flags are the
 * process's; a --require given to the command is not the parser's business). Run from src/ (tsx,
 * the tests), it runs the source next to this file through tsx, as the process itself does.
 */
function startWorker(document: unknown): Worker {
  const root = packageRoot();
  if (fileURLToPath(import.meta.url).startsWith(path.join(root, "dist") + path.sep))
    return new Worker(pathToFileURL(path.join(root, "dist", "description-worker.js")), {
      workerData: document,
      execArgv: [],
    });
  const tsx = import.meta.resolve("tsx/esm/api");
  const file = new URL("./description-worker.ts", import.meta.url).href;
  const load = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(file)}))`;
  return new Worker(load, { eval: true, workerData: document });
}
