import { describe, expect, it } from "vitest";
import { parseBody } from "../../src/parse/parse-body.ts";
import { factsFromChanges, recordHeadings } from "../../src/parse/profile-facts.ts";
import type { StoredBody } from "../../src/parse/types.ts";

const json = (value: unknown, contentType = "application/json"): StoredBody => ({
  path: "p",
  contentType,
  json: value,
  bytes: null,
});
const bytes = (text: string, contentType: string | null): StoredBody => ({
  path: "p",
  contentType,
  json: undefined,
  bytes: Buffer.from(text),
});

describe("the emulator's change-file shape", () => {
  it("reads every heading with its old and new value, in file order", () => {
    const outcome = parseBody(
      json({
        tax_id: "12345678",
        business_form: "companies",
        date: "2024-03-01",
        chapter: "finance",
        changed_headings: ["bank_accounts", "address"],
        changes: [
          {
            heading: "bank_accounts",
            old_value: [{ bank_account: "A" }],
            new_value: [{ bank_account: "B" }],
          },
          { heading: "address", old_value: "Old street 1", new_value: "New street 2" },
        ],
      }),
    );
    expect(outcome).toEqual({
      status: "parsed",
      parser: "changes-json-v1",
      values: [
        { heading: "bank_accounts", oldValue: [{ bank_account: "A" }], newValue: [{ bank_account: "B" }] },
        { heading: "address", oldValue: "Old street 1", newValue: "New street 2" },
      ],
    });
  });

  it("is tolerant: extra fields, any value types, missing old_value, fields in any order", () => {
    const outcome = parseBody(
      json({
        changes: [
          { new_value: 7, heading: "status", extra: { deep: true } },
          { heading: "flags", old_value: null, new_value: false },
          { heading: "count", old_value: 1.5, new_value: { nested: [1, "x"] } },
        ],
        unknown_top: [1, 2],
        date: 20240301,
      }),
    );
    expect(outcome.status).toBe("parsed");
    if (outcome.status !== "parsed") return;
    expect(outcome.values).toEqual([
      { heading: "status", oldValue: null, newValue: 7 },
      { heading: "flags", oldValue: null, newValue: false },
      { heading: "count", oldValue: 1.5, newValue: { nested: [1, "x"] } },
    ]);
  });

  it("keeps the last value of a heading listed twice", () => {
    const outcome = parseBody(
      json({
        changes: [
          { heading: "address", old_value: "a", new_value: "b" },
          { heading: "long_name", old_value: "x", new_value: "y" },
          { heading: "address", old_value: "b", new_value: "c" },
        ],
      }),
    );
    expect(outcome.status === "parsed" && outcome.values).toEqual([
      { heading: "address", oldValue: "b", newValue: "c" },
      { heading: "long_name", oldValue: "x", newValue: "y" },
    ]);
  });

  it("reads JSON kept as bytes (a body with NUL characters)", () => {
    const outcome = parseBody(
      bytes('{"changes":[{"heading":"long_name","new_value":"A\\u0000B"}]}', "application/json"),
    );
    expect(outcome.status === "parsed" && outcome.values[0]!.newValue).toBe("A\u0000B");
  });
});

describe("bodies no parser reads", () => {
  it("marks XML unrecognised with the content type in the reason", () => {
    const outcome = parseBody(bytes("<change><heading>address</heading></change>", "application/xml"));
    expect(outcome).toEqual({
      status: "unrecognised",
      reason: "no parser recognises a body of type application/xml",
    });
  });

  it("marks JSON of another shape unrecognised", () => {
    for (const body of [
      { records: [] },
      [1, 2],
      { changes: "none" },
      { changes: [{ field: "x" }] },
      "text",
    ]) {
      const outcome = parseBody(json(body));
      expect(outcome.status, JSON.stringify(body)).toBe("unrecognised");
    }
  });

  it("marks a broken body of the known shape failed, naming the entry", () => {
    expect(parseBody(json({ changes: [{ heading: "a" }, 3] }))).toEqual({
      status: "failed",
      parser: "changes-json-v1",
      reason: "changes[1] is not an object",
    });
    expect(parseBody(json({ changes: [{ heading: "a" }, { heading: "" }] }))).toMatchObject({
      status: "failed",
      reason: "changes[1].heading is not a non-empty string",
    });
    expect(parseBody(bytes('{"changes": [', "application/json"))).toMatchObject({ status: "failed" });
    expect(parseBody({ path: "p", contentType: null, json: null, bytes: null })).toMatchObject({
      status: "failed",
      reason: "the file has no stored body",
    });
  });

  it("lets a parser added later read what today's parsers do not", () => {
    const xml = bytes("<change><heading>address</heading><new>Here 1</new></change>", "text/xml");
    const xmlParser = {
      name: "xml-test",
      parse: (b: StoredBody) => {
        const text = b.bytes?.toString() ?? "";
        const m = /<heading>(.*)<\/heading><new>(.*)<\/new>/.exec(text);
        return m ? [{ heading: m[1]!, oldValue: null, newValue: m[2]! }] : null;
      },
    };
    expect(parseBody(xml, [xmlParser])).toEqual({
      status: "parsed",
      parser: "xml-test",
      values: [{ heading: "address", oldValue: null, newValue: "Here 1" }],
    });
  });
});

describe("profile facts", () => {
  it("keeps the newest value per heading across a batch, whatever the row order", () => {
    const facts = factsFromChanges([
      { taxId: "1", changeDate: "2024-03-05", changeId: 9, heading: "address", newValue: "new" },
      { taxId: "1", changeDate: "2024-03-01", changeId: 3, heading: "address", newValue: "old" },
      { taxId: "1", changeDate: "2024-03-01", changeId: 3, heading: "long_name", newValue: "N" },
    ]);
    expect(facts).toEqual([
      {
        taxId: "1",
        headings: {
          address: { value: "new", as_of: "2024-03-05", source: "change_file" },
          long_name: { value: "N", as_of: "2024-03-01", source: "change_file" },
        },
      },
    ]);
  });

  it("names search record fields as change files name the headings", () => {
    expect(
      recordHeadings({ full_name: "A Kft.", status_code: 1, address: "X", short_name: undefined }),
    ).toEqual({
      long_name: "A Kft.",
      status: 1,
      address: "X",
    });
  });
});
