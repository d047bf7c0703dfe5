#!/usr/bin/env node
// Runs a TypeScript file of this repository (benchmarks, scripts) through tsx. CommonJS, as
// every file of bin/ (bin/package.json); tsx's hooks (its ES module API: the CommonJS one does not
// find its own files) and then the file are loaded with import().
const { pathToFileURL } = require("node:url");

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error("usage: run-ts FILE.ts [ARGS...]");
  process.exit(64);
}
process.argv = [process.argv[0], file, ...rest];
import("tsx/esm/api").then(({ register }) => {
  register();
  return import(pathToFileURL(file).href);
});
