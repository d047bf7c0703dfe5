/**
 * How far V8 lets the old generation grow past what its last full collection kept, for the
 * processes whose peak memory is what counts: `payments check` and the console (`web`). Both
 * keep a small heap (a check about 20 MB: one chunk, the batch's caches) while a batch allocates
 * about 1 GB per 200,000 rows, and by default V8 let the old generation reach about 4 times the
 * live heap before collecting it, so the peak was mostly garbage. At 1.5 times, measured: a
 * 200,000-row check peaks about 25 MB lower for about 40 more full collections of a few
 * milliseconds each, and the console's 100 MB upload at 157 MB instead of about 233. A factor of
 * V8's heuristics, not a cap: a heap that needs to grow still grows. Set at run time, where it is
 * read at every collection (unlike the young generation's size, which bin/regwatch.js gives Node
 * when it starts), so other commands keep V8's default.
 */
import { setFlagsFromString } from "node:v8";

export function favourMemoryOverCollections(): void {
  setFlagsFromString("--heap-growing-percent=50");
}
