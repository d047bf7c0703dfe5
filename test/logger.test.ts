import { describe, expect, it } from "vitest";
import { redactSecrets } from "../src/logger.ts";

describe("secret redaction", () => {
  it("removes a key wherever it appears in a line, raw, JSON-escaped or URL-encoded", () => {
    const key = 'k3y/with"odd+chars';
    const line = JSON.stringify({ msg: `GET https://x/?k=${encodeURIComponent(key)} failed`, header: key });
    const out = redactSecrets(line, [key]);
    expect(out).not.toContain("k3y");
    expect(out).toContain("[redacted]");
  });
});
