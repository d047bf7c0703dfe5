/**
 * `regwatch sync` and `regwatch backfill` ask V8 to favour memory over speed. What
 * a sync keeps alive is small (about 25 MB of a heap, most of it code); what it allocates is
 * short-lived (answers, pages of rows, parsed change files), and with its default growth V8 let
 * the old generation reach about twice the live size before collecting it, so the heap was the
 * part of a long backfill's peak that grew (issue 38). With --optimize-for-size a full collection
 * comes sooner (at about 1.3 times the live size). The collections cost CPU a sync has to spare:
 * it waits on the registry's rate limit. The flag is read at each collection, so setting it when
 * such a command starts is enough. Other commands (the payment check, the console: CPU-bound)
 * keep V8's default.
 */
import { setFlagsFromString } from "node:v8";

let set = false;

export function preferSmallHeap(): void {
  if (set) return;
  set = true;
  setFlagsFromString("--optimize-for-size");
}
