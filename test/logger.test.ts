import { describe, expect, it } from "vitest";
import { redactJson, redactSecrets, registerSecrets } from "../src/secrets.ts";

describe("secret redaction", () => {
  it("removes a key wherever it appears in a line, raw, JSON-escaped or URL-encoded", () => {
    const key = 'k3y/with"odd+chars';
    const line = JSON.stringify({ msg: `GET https://x/?k=${encodeURIComponent(key)} failed`, header: key });
    const out = redactSecrets(line, [key]);
    expect(out).not.toContain("k3y");
    expect(out).toContain("[redacted]");
  });
});

describe("registered secrets", () => {
  it("are scrubbed from text and from every string of a JSON value, base64 form included", () => {
    const key = "registered-key-123";
    registerSecrets([key]);
    expect(redactSecrets(`401: key ${key} is not valid`)).toBe("401: key [redacted] is not valid");
    const stats = { fatal: `bad ${key}`, nested: [{ [key]: Buffer.from(key).toString("base64") }], n: 3 };
    const out = JSON.stringify(redactJson(stats));
    expect(out).not.toContain(key);
    expect(out).not.toContain(Buffer.from(key).toString("base64"));
    expect(out).toContain('"n":3');
  });
});
