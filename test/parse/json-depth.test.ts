/**
 * The nesting bound of change files (issue 37, point 4): measured by a linear scan, without
 * recursion, over bytes or text in pieces of any size; brackets inside strings do not count.
 */
import { describe, expect, it } from "vitest";
import { JsonDepthMeter, jsonTooDeep, MAX_FILE_JSON_DEPTH } from "../../src/json-depth.ts";
import { jsonOf } from "../../src/parse/json-body.ts";
import { BodyInspector } from "../../src/sync/file-body.ts";

const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

describe("JSON nesting depth", () => {
  it("counts arrays and objects, not brackets inside strings or after escapes", () => {
    const meter = new JsonDepthMeter();
    meter.update('{"a":[{"b":"[[[{{{\\"[[["}],"c":"\\\\"},[1]]');
    expect(meter.deepest).toBe(3);
  });

  it("allows the bound and refuses one level more", () => {
    expect(jsonTooDeep(nested(MAX_FILE_JSON_DEPTH))).toBeNull();
    expect(jsonTooDeep(nested(MAX_FILE_JSON_DEPTH + 1))).toContain(
      "nested deeper than 1000 levels (1001 levels)",
    );
  });

  it("reads bytes cut anywhere, an escape split across pieces included", () => {
    const text = `{"s":"\\"[[[[","v":${nested(1500)}}`;
    const bytes = Buffer.from(text);
    const whole = new JsonDepthMeter();
    whole.update(bytes);
    for (const cut of [1, 7, 13]) {
      const meter = new JsonDepthMeter();
      for (let i = 0; i < bytes.length; i += cut) meter.update(bytes.subarray(i, i + cut));
      expect(meter.deepest).toBe(whole.deepest);
    }
    expect(whole.deepest).toBe(1501);
  });

  it("measures 200,000 levels without overflowing the stack", () => {
    expect(jsonTooDeep(nested(200_000))).toContain("(200000 levels)");
  });

  it("makes the file phase keep a too deep body as bytes, with the reason", () => {
    const inspector = new BodyInspector("application/json");
    inspector.update(Buffer.from(nested(5000)));
    expect(inspector.finish()).toMatchObject({
      asJson: false,
      refusal: expect.stringContaining("1000 levels"),
    });
    const fine = new BodyInspector("application/json");
    fine.update(Buffer.from(nested(3)));
    expect(fine.finish()).toMatchObject({ asJson: true, refusal: null });
  });

  it("makes the parser refuse a too deep body before JSON.parse", () => {
    expect(() =>
      jsonOf({ path: "x", contentType: "text/plain", json: null, bytes: Buffer.from(nested(200_000)) }),
    ).toThrow(/nested deeper than 1000 levels/);
  });
});
