import { describe, expect, it } from "vitest";
import { firstAnswerProblem, tlsAsk } from "../../src/db/first-answer.ts";

const bytes = (text: string) => Buffer.from(text, "latin1");

describe("a Postgres address's first answer", () => {
  it.each(["R\0\0\0\x08", "E\0\0\0\x50SFATAL", "S", "N", "v\0\0\0\x0c"])("%j may be Postgres's", (first) => {
    expect(firstAnswerProblem(bytes(first), "none")).toBeUndefined();
    expect(firstAnswerProblem(bytes(first), "prefer")).toBeUndefined();
  });

  it("another service's answer is quoted, its first 40 bytes as printable ASCII", () => {
    const problem = firstAnswerProblem(
      bytes(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n`),
      "none",
    );
    expect(problem).toBe(
      `does not speak Postgres's protocol (it answered "HTTP/1.1 400 Bad Request..Connection: cl"): check that DATABASE_URL names Postgres's port`,
    );
    expect(firstAnswerProblem(bytes("\x1b]0;x\x07\u00e9"), "none")).toContain('(it answered ".]0;x..")');
  });

  it("a refusal of TLS is a problem only where TLS is required", () => {
    expect(firstAnswerProblem(bytes("N"), "required")).toMatch(
      /^does not accept TLS, which DATABASE_URL requires/,
    );
    expect(firstAnswerProblem(bytes("S"), "required")).toBeUndefined();
  });

  it("a direct TLS handshake's answer is left to TLS", () => {
    expect(firstAnswerProblem(Buffer.from([0x16, 3, 3]), "direct")).toBeUndefined();
    expect(firstAnswerProblem(Buffer.from([0x16, 3, 3]), "none")).toMatch(
      /does not speak Postgres's protocol/,
    );
  });
});

describe("the TLS a connection asks for", () => {
  it.each([
    [undefined, undefined, "none"],
    [false, undefined, "none"],
    ["prefer", undefined, "prefer"],
    ["require", undefined, "required"],
    ["verify-full", undefined, "required"],
    [true, undefined, "required"],
    [{ rejectUnauthorized: true }, undefined, "required"],
    ["require", "direct", "direct"],
  ])("ssl %j, sslnegotiation %j: %s", (ssl, negotiation, ask) => {
    expect(tlsAsk(ssl, negotiation)).toBe(ask);
  });
});
