/**
 * A command body that logs what a careless line might: the configuration itself, a request's
 * headers, a URL and a message holding the key, an error echoing the SMTP password. Run as a
 * process by test/logger.test.ts, through `runAction`, so the logger is wired exactly as every
 * command's is (configuration → its secrets → the logger on stderr).
 */
import { runAction } from "../../src/commands/context.ts";

const HEADER_ONLY = process.argv[2] ?? "header-only-value";

await runAction(async ({ config, log }) => {
  const key = config.apiKey ?? "";
  log.info({ config }, "configuration");
  log.info({ request: { headers: { "x-api-key": HEADER_ONLY, accept: "application/json" } } }, "headers");
  log.warn({ url: `https://registry.example/v2/lists?key=${encodeURIComponent(key)}` }, `401 for key ${key}`);
  log.error({ err: new Error(`SMTP refused ${config.smtpUrl}`) }, "mail failed");
  return 0;
});
