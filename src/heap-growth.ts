/**
 * Lets V8's old generation grow to 1.5 times what its last full collection kept (not about 4), for
 * `payments check` and the console, whose peaks were mostly garbage: lower peaks for a few more
 * collections (figures in docs/benchmarks.md, "Figures behind the code"). Read at every collection.
 */
import { setFlagsFromString } from "node:v8";

export function favourMemoryOverCollections(): void {
  setFlagsFromString("--heap-growing-percent=50");
}
