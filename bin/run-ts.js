#!/usr/bin/env node
// Runs a TypeScript file of this repository (benchmarks, scripts) through tsx.
import { pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

register();
const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error("usage: run-ts FILE.ts [ARGS...]");
  process.exit(64);
}
process.argv = [process.argv[0], file, ...rest];
await import(pathToFileURL(file).href);
