/**
 * The build's table of zones' short names (src/zone-clock.ts). None here: the status file's build
 * (scripts/one-file-builds.mjs) puts the table it made in this module's place; every other build,
 * and the sources, answer with Intl.
 */
import type { ZoneTable } from "./zone-clock.ts";

export const ZONE_TABLE: ZoneTable | undefined = undefined;
