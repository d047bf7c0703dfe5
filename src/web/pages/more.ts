/**
 * The console's pages beyond the inbox and alerts: business history, the change feed and its
 * downloads, payment checks, coverage, runs and lists. The server calls this after its sign-in
 * and CSRF hooks are in place.
 */
import type { RegisterPages } from "../kit.ts";

export const registerMorePages: RegisterPages = async (_app, _deps, _kit) => {};
