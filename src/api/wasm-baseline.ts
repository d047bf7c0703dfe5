/**
 * undici reads HTTP responses with llhttp compiled to WebAssembly. V8 compiles that module with
 * its baseline compiler (Liftoff) and, once its functions run hot, a second time with its
 * optimising compiler on background threads: that second compile held about 30 MB at its peak
 * and left about 10 MB resident, the largest single part of a short sync's or backfill's peak
 * memory (measured on Node 20, issue 38), to speed up a parser that reads a few dozen responses a
 * second here. With `--liftoff-only` the baseline code is all there is. V8 reads the flag when it
 * compiles a module, so setting it before undici's first connection is enough; regwatch runs no
 * other WebAssembly of its own. Imported (for this effect) by every module that imports undici.
 */
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--liftoff-only");
