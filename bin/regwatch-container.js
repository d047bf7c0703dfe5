#!/usr/bin/env node
// `regwatch` inside the Docker image: the entrypoint, and /usr/local/bin/regwatch for
// `docker compose exec regwatch regwatch status` (or doctor, backfill, ...). docker-compose.yml
// gives DATABASE_URL without a password and the password as a Docker secret, named by
// DATABASE_PASSWORD_FILE; this puts the two together for every command, so the password is in no
// file but the secret and no command has to be wrapped in a shell. The password is URL-encoded
// on the way (a generated one has / and +). Then it runs bin/regwatch.js; Node's young-generation
// flag comes from NODE_OPTIONS, set in the Dockerfile.
// CommonJS, as every file of bin/ (bin/package.json).
const { readFileSync } = require("node:fs");

const passwordFile = process.env.DATABASE_PASSWORD_FILE;
if (passwordFile && process.env.DATABASE_URL) {
  let url;
  try {
    url = new URL(process.env.DATABASE_URL);
  } catch {
    fail("DATABASE_URL is not a URL");
  }
  if (url.password === "") {
    let password;
    try {
      password = readFileSync(passwordFile, "utf8").replace(/\r?\n$/, "");
    } catch (error) {
      fail(
        `DATABASE_PASSWORD_FILE ${passwordFile} cannot be read (${error.code ?? error.message}): create the secret file docker-compose.yml names, readable by the image's user (uid 1000)`,
      );
    }
    if (password === "") fail(`DATABASE_PASSWORD_FILE ${passwordFile} is empty`);
    url.password = encodeURIComponent(password);
    process.env.DATABASE_URL = url.href;
  }
}
require("./regwatch.js");

function fail(message) {
  process.stderr.write(`regwatch: ${message}\n`);
  process.exit(78);
}
