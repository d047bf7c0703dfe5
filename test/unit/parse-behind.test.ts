import { describe, expect, it } from "vitest";
import { parseBehind } from "../../src/sync/parse-behind.ts";

/** A parse the test ends by hand, counting how many were started. */
function manualParse() {
  const ends: ((error?: Error) => void)[] = [];
  const parse = () =>
    new Promise<void>((resolve, reject) => {
      ends.push((error) => (error ? reject(error) : resolve()));
    });
  return { parse, ends };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("parsing behind the file fetches", () => {
  it("starts a parse once enough files are fetched, one at a time, and again for those fetched meanwhile", async () => {
    const { parse, ends } = manualParse();
    const behind = parseBehind(parse, 3);
    behind.fetched();
    behind.fetched();
    expect(ends).toHaveLength(0);
    behind.fetched();
    expect(ends).toHaveLength(1);
    // Fetched while the parse runs: no second parse beside it, but one after it.
    for (let i = 0; i < 4; i++) behind.fetched();
    expect(ends).toHaveLength(1);
    ends[0]!();
    await turn();
    expect(ends).toHaveLength(2);
    ends[1]!();
    await turn();
    // Nothing fetched since: nothing more to parse behind (the pass's own parse takes the rest).
    expect(ends).toHaveLength(2);
    await behind.finish();
  });

  it("waits for the parse running at the end, and throws what a parse threw", async () => {
    const { parse, ends } = manualParse();
    const behind = parseBehind(parse, 1);
    behind.fetched();
    let finished = false;
    const finish = behind.finish().then(
      () => {
        finished = true;
      },
      (error: Error) => error.message,
    );
    await turn();
    expect(finished).toBe(false);
    ends[0]!(new Error("database gone"));
    expect(await finish).toBe("database gone");
    // After a failure no parse starts behind the fetches any more.
    behind.fetched();
    expect(ends).toHaveLength(1);
  });
});
