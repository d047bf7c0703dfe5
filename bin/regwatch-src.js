#!/bin/sh
//bin/sh -c :; case "$1 $2 $*" in "payments check "*--xlsx*) ;; "payments check "*) MALLOC_ARENA_MAX=2 exec node --max-semi-space-size=4 "$0" "$@";; esac; exec node --max-semi-space-size=2 "$0" "$@"
// `regwatch` from the TypeScript sources through tsx (a dev dependency), for the tests and the
// benchmarks, so they run the code as it is now and never an older build. Not the published
// command (that is bin/regwatch.js, which runs dist/ only); it starts Node the same way (the two
// lines above, explained there).
// CommonJS, as every file of bin/ (bin/package.json); tsx's hooks (its ES module API: the
// CommonJS one does not find its own files) and then the sources are loaded with import().
import("tsx/esm/api").then(({ register }) => {
  register();
  return import("../src/cli.ts");
});
