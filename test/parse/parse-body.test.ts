import { describe, expect, it } from "vitest";
import { parseBody } from "../../src/parse/parse-body.ts";
import { recordHeadings } from "../../src/parse/profile-facts.ts";
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
        {
          heading: "bank_accounts",
          oldValue: [{ bank_account: "A" }],
          newValue: [{ bank_account: "B" }],
          taxId: "12345678",
          chapter: "finance",
        },
        {
          heading: "address",
          oldValue: "Old street 1",
          newValue: "New street 2",
          taxId: "12345678",
          chapter: "finance",
        },
      ],
    });
  });

  it("reads a file shared by several businesses: each entry names its own, the file's name applies to the rest", () => {
    const outcome = parseBody(
      json({
        date: "2024-03-05",
        business_form: "companies",
        chapter: 7,
        changes: [
          { tax_id: "11111111", chapter: "9", heading: "long_name", old_value: "A", new_value: "B" },
          { tax_id: "22222222-2-41", heading: "address", old_value: "X", new_value: "Y" },
          { heading: "status", old_value: 1, new_value: 2 },
          { tax_id: "not a tax id", heading: "status", old_value: 1, new_value: 0 },
        ],
      }),
    );
    expect(outcome.status === "parsed" && outcome.values).toEqual([
      { heading: "long_name", oldValue: "A", newValue: "B", taxId: "11111111", chapter: "9" },
      { heading: "address", oldValue: "X", newValue: "Y", taxId: "22222222", chapter: "7" },
      { heading: "status", oldValue: 1, newValue: 2, taxId: null, chapter: "7" },
      // Nobody's: it can match no change, and does not fail the others.
      { heading: "status", oldValue: 1, newValue: 0, taxId: 'unreadable: "not a tax id"', chapter: "7" },
    ]);
  });

  it("is tolerant of extra fields, value types and field order; a missing old_value is unknown, not null", () => {
    const outcome = parseBody(
      json({
        changes: [
          { new_value: 7, heading: "status" },
          { heading: "flags", old_value: null, new_value: false, extra: { deep: true } },
          { heading: "count", old_value: 1.5, new_value: { nested: [1, "x"] } },
        ],
        unknown_top: [1, 2],
        date: 20240301,
      }),
    );
    expect(outcome.status).toBe("parsed");
    if (outcome.status !== "parsed") return;
    expect(
      outcome.values.map(({ heading, oldValue, newValue, oldUnknown }) => ({
        heading,
        oldValue,
        newValue,
        ...(oldUnknown ? { oldUnknown } : {}),
      })),
    ).toEqual([
      { heading: "status", oldValue: null, newValue: 7, oldUnknown: true },
      { heading: "flags", oldValue: null, newValue: false },
      { heading: "count", oldValue: 1.5, newValue: { nested: [1, "x"] } },
    ]);
  });

  it("gives every entry of a heading listed twice, for attribution to net", () => {
    const outcome = parseBody(
      json({
        changes: [
          { heading: "address", old_value: "b", new_value: "c" },
          { heading: "address", old_value: "a", new_value: "b" },
        ],
      }),
    );
    expect(outcome.status === "parsed" && outcome.values.map((v) => [v.oldValue, v.newValue])).toEqual([
      ["b", "c"],
      ["a", "b"],
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

  it("claims no body without the fields it needs, and says which are missing", () => {
    const cases: [unknown, string][] = [
      [{ changes: [] }, "changes is empty"],
      [{ changes: [{ heading: "bank_accounts", before: "A", after: "B" }] }, "changes[0] has no new_value"],
      [
        {
          changes: [
            { heading: "a", new_value: 1 },
            { heading: "b", old_value: 1 },
          ],
        },
        "changes[1] has no new_value",
      ],
      [{ changes: [{ heading: "a", new_value: 1 }, 3] }, "changes[1] is not an object"],
    ];
    for (const [body, reason] of cases) {
      const outcome = parseBody(json(body));
      expect(outcome.status, JSON.stringify(body)).toBe("unrecognised");
      expect(outcome.status === "unrecognised" && outcome.reason, JSON.stringify(body)).toContain(reason);
    }
  });

  it("marks a broken body of the known shape failed, naming the entry", () => {
    expect(
      parseBody(
        json({
          changes: [
            { heading: "a", new_value: 1 },
            { heading: "", new_value: 2 },
          ],
        }),
      ),
    ).toEqual({
      status: "failed",
      parser: "changes-json-v1",
      reason: "changes[1].heading is not a non-empty string",
    });
    expect(parseBody(json({ tax_id: "12", changes: [{ heading: "a", new_value: 1 }] }))).toMatchObject({
      status: "failed",
      reason: "the file's tax_id is not a tax base number or tax number",
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
