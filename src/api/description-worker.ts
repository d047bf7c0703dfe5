/**
 * The worker thread that validates a registry description and resolves its internal references
 * with @readme/openapi-parser (see description-parse.ts for why a thread of its own). Given the
 * document as workerData, it posts one ParsedDescription back and ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { ParsedDescription } from "./description-parse.ts";

/** Longest the parser may spend resolving one document's references. */
const PARSE_TIME_MS = 10_000;

const options = {
  resolve: { external: false, file: false },
  dereference: { circular: "ignore" as const },
  timeoutMs: PARSE_TIME_MS,
  // Checks beyond the specification's own schema say nothing about the parameters read here.
  validate: {
    rules: {
      openapi: {
        "array-without-items": "warning",
        "duplicate-operation-id": "warning",
        "path-parameters-not-in-parameters": "warning",
        "path-parameters-not-in-path": "warning",
      },
    },
  },
} as const;

async function parse(document: unknown): Promise<ParsedDescription> {
  try {
    const { dereference, validate } = await import("@readme/openapi-parser");
    // Both calls change the object they are given: each gets its own copy.
    const checked = await validate(structuredClone(document) as never, options);
    if (!checked.valid) {
      const first = checked.errors[0]?.message.split("\n")[0] ?? "invalid";
      return { ok: false, problem: `is not a valid OpenAPI description (${first.slice(0, 200)})` };
    }
    return { ok: true, resolved: await dereference(document as never, options) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `could not be parsed (${message.replace(/\s+/g, " ").slice(0, 200)})` };
  }
}

parentPort?.postMessage(await parse(workerData));
