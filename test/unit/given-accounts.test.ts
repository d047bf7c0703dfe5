import { describe, expect, it } from "vitest";
import { givenAccounts } from "../../src/web/pages/given-accounts.ts";

describe("the accounts an add form gives", () => {
  it("joins ticked, typed and offered names, each once and sorted", () => {
    expect(givenAccounts({ ticked: ["b"], typed: " C,a;;b\n\td ", all: false }, ["x"])).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
    expect(givenAccounts({ typed: "a", all: true }, ["z", "a"])).toEqual(["a", "z"]);
  });

  it("gives nothing for an empty form, or blank typing", () => {
    expect(givenAccounts({}, ["a"])).toEqual([]);
    expect(givenAccounts({ typed: " ,\n; " }, ["a"])).toEqual([]);
  });
});
