// Stands in for `npm run bench -- --loaded` in test/bench/loaded.test.ts: starts the load, says the
// load's pid, then ends as argv[2] says ("exit", "throw") or waits for a signal.
import { startLoad } from "../../bench/loaded.ts";

const load = await startLoad();
process.stdout.write(`load ${load.pid}\n`);
const how = process.argv[2];
if (how === "exit") process.exit(0);
if (how === "throw") throw new Error("a scenario failed");
setInterval(() => {}, 1000);
