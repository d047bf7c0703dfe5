/**
 * `regwatch sync` and `backfill` set `--optimize-for-size`: their live heap is small and what they
 * allocate is short-lived, so an earlier full collection keeps a long backfill's peak down at a CPU
 * cost the rate limit leaves to spare (docs/benchmarks.md, "Figures behind the code").
 */
import { setFlagsFromString } from "node:v8";

let set = false;

export function preferSmallHeap(): void {
  if (set) return;
  set = true;
  setFlagsFromString("--optimize-for-size");
}
