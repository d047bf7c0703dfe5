/**
 * `--liftoff-only`: undici's WebAssembly HTTP parser keeps V8's baseline code, without the
 * optimising recompile that was the largest part of a short sync's peak memory (docs/benchmarks.md,
 * "Figures behind the code"). Set before undici's first connection; imported by its importers.
 */
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--liftoff-only");
