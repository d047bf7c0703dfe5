/**
 * Both builds of the Postgres driver, each patched (patches/postgres+3.4.9.patch): the sources and
 * the tests import the ES module one; the build bundles the CommonJS one, which users run.
 */
import { createRequire } from "node:module";
import esmPostgres from "postgres";

export const BOTH_DRIVER_BUILDS = [
  ["ES module", esmPostgres],
  ["CommonJS", createRequire(import.meta.url)("postgres") as typeof esmPostgres],
] as const;
